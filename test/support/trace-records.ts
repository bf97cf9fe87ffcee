/**
 * Builders of Claude Code records for the progress tests (checks/progress/*.test.ts). Each
 * builder writes what the real harness writes, field for field, per the field maps in
 * docs/progress.md.
 */
let uid = 0;

export interface ClaudeCall {
  name: string;
  input: Record<string, unknown>;
  result: string;
  isError?: boolean;
  toolUseResult?: Record<string, unknown>;
  usage?: Record<string, number>;
  messageId?: string;
}

/** One tool call as Claude Code logs it: the assistant line, then the user line with the result. */
export function claudeCall(call: ClaudeCall): unknown[] {
  const id = `toolu_${++uid}`;
  const messageId = call.messageId ?? `msg_${uid}`;
  return [
    {
      type: "assistant",
      uuid: `u-${uid}-a`,
      sessionId: "s1",
      timestamp: "2025-11-01T10:00:00.000Z",
      message: {
        id: messageId,
        role: "assistant",
        content: [{ type: "tool_use", id, name: call.name, input: call.input }],
        usage: call.usage ?? { input_tokens: 10, cache_read_input_tokens: 1000, output_tokens: 5 },
      },
    },
    {
      type: "user",
      uuid: `u-${uid}-u`,
      sessionId: "s1",
      timestamp: "2025-11-01T10:00:01.000Z",
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: id,
            content: call.result,
            is_error: call.isError ?? false,
          },
        ],
      },
      toolUseResult: call.toolUseResult ?? {},
    },
  ];
}

export const claudePrompt = (text: string) => ({
  type: "user",
  uuid: `u-${++uid}-p`,
  sessionId: "s1",
  message: { role: "user", content: text },
});

export const bash = (command: string, result: string, exit = 0): unknown[] =>
  claudeCall({
    name: "Bash",
    input: { command, description: `run ${uid}` },
    result: exit === 0 ? result : `Exit code ${exit}\n${result}`,
    isError: exit !== 0,
  });

export const atLines = (records: unknown[]) =>
  records.map((record, i) => ({ record, at: `line ${i + 1}` }));
