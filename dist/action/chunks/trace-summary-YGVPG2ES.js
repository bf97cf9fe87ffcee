import { createRequire as __agateCreateRequire } from 'node:module';
const require = __agateCreateRequire(import.meta.url);
import {
  PROGRESS_REPORT_VERSION,
  TRACE_FILES_LIMIT,
  TRACE_FORMATS,
  codeSpan,
  normaliseOutput,
  progressThresholdsSchema,
  tableCell,
  uploadTraceReport
} from "./chunk-ABGFYM4F.js";
import "./chunk-3CVLB5M4.js";
import {
  __commonJS,
  __toESM
} from "./chunk-FBXJFVTN.js";

// node_modules/picomatch/lib/constants.js
var require_constants = __commonJS({
  "node_modules/picomatch/lib/constants.js"(exports, module) {
    "use strict";
    var WIN_SLASH = "\\\\/";
    var WIN_NO_SLASH = `[^${WIN_SLASH}]`;
    var DEFAULT_MAX_EXTGLOB_RECURSION = 0;
    var DOT_LITERAL = "\\.";
    var PLUS_LITERAL = "\\+";
    var QMARK_LITERAL = "\\?";
    var SLASH_LITERAL = "\\/";
    var ONE_CHAR = "(?=.)";
    var QMARK = "[^/]";
    var END_ANCHOR = `(?:${SLASH_LITERAL}|$)`;
    var START_ANCHOR = `(?:^|${SLASH_LITERAL})`;
    var DOTS_SLASH = `${DOT_LITERAL}{1,2}${END_ANCHOR}`;
    var NO_DOT = `(?!${DOT_LITERAL})`;
    var NO_DOTS = `(?!${START_ANCHOR}${DOTS_SLASH})`;
    var NO_DOT_SLASH = `(?!${DOT_LITERAL}{0,1}${END_ANCHOR})`;
    var NO_DOTS_SLASH = `(?!${DOTS_SLASH})`;
    var QMARK_NO_DOT = `[^.${SLASH_LITERAL}]`;
    var STAR = `${QMARK}*?`;
    var SEP = "/";
    var POSIX_CHARS = {
      DOT_LITERAL,
      PLUS_LITERAL,
      QMARK_LITERAL,
      SLASH_LITERAL,
      ONE_CHAR,
      QMARK,
      END_ANCHOR,
      DOTS_SLASH,
      NO_DOT,
      NO_DOTS,
      NO_DOT_SLASH,
      NO_DOTS_SLASH,
      QMARK_NO_DOT,
      STAR,
      START_ANCHOR,
      SEP
    };
    var WINDOWS_CHARS = {
      ...POSIX_CHARS,
      SLASH_LITERAL: `[${WIN_SLASH}]`,
      QMARK: WIN_NO_SLASH,
      STAR: `${WIN_NO_SLASH}*?`,
      DOTS_SLASH: `${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$)`,
      NO_DOT: `(?!${DOT_LITERAL})`,
      NO_DOTS: `(?!(?:^|[${WIN_SLASH}])${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      NO_DOT_SLASH: `(?!${DOT_LITERAL}{0,1}(?:[${WIN_SLASH}]|$))`,
      NO_DOTS_SLASH: `(?!${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      QMARK_NO_DOT: `[^.${WIN_SLASH}]`,
      START_ANCHOR: `(?:^|[${WIN_SLASH}])`,
      END_ANCHOR: `(?:[${WIN_SLASH}]|$)`,
      SEP: "\\"
    };
    var POSIX_REGEX_SOURCE = {
      __proto__: null,
      alnum: "a-zA-Z0-9",
      alpha: "a-zA-Z",
      ascii: "\\x00-\\x7F",
      blank: " \\t",
      cntrl: "\\x00-\\x1F\\x7F",
      digit: "0-9",
      graph: "\\x21-\\x7E",
      lower: "a-z",
      print: "\\x20-\\x7E ",
      punct: "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
      space: " \\t\\r\\n\\v\\f",
      upper: "A-Z",
      word: "A-Za-z0-9_",
      xdigit: "A-Fa-f0-9"
    };
    module.exports = {
      DEFAULT_MAX_EXTGLOB_RECURSION,
      MAX_LENGTH: 1024 * 64,
      POSIX_REGEX_SOURCE,
      // regular expressions
      REGEX_BACKSLASH: /\\(?![*+?^${}(|)[\]])/g,
      REGEX_NON_SPECIAL_CHARS: /^[^@![\].,$*+?^{}()|\\/]+/,
      REGEX_SPECIAL_CHARS: /[-*+?.^${}(|)[\]]/,
      REGEX_SPECIAL_CHARS_BACKREF: /(\\?)((\W)(\3*))/g,
      REGEX_SPECIAL_CHARS_GLOBAL: /([-*+?.^${}(|)[\]])/g,
      REGEX_REMOVE_BACKSLASH: /(?:\[.*?[^\\]\]|\\(?=.))/g,
      // Replace globs with equivalent patterns to reduce parsing time.
      REPLACEMENTS: {
        __proto__: null,
        "***": "*",
        "**/**": "**",
        "**/**/**": "**"
      },
      // Digits
      CHAR_0: 48,
      /* 0 */
      CHAR_9: 57,
      /* 9 */
      // Alphabet chars.
      CHAR_UPPERCASE_A: 65,
      /* A */
      CHAR_LOWERCASE_A: 97,
      /* a */
      CHAR_UPPERCASE_Z: 90,
      /* Z */
      CHAR_LOWERCASE_Z: 122,
      /* z */
      CHAR_LEFT_PARENTHESES: 40,
      /* ( */
      CHAR_RIGHT_PARENTHESES: 41,
      /* ) */
      CHAR_ASTERISK: 42,
      /* * */
      // Non-alphabetic chars.
      CHAR_AMPERSAND: 38,
      /* & */
      CHAR_AT: 64,
      /* @ */
      CHAR_BACKWARD_SLASH: 92,
      /* \ */
      CHAR_CARRIAGE_RETURN: 13,
      /* \r */
      CHAR_CIRCUMFLEX_ACCENT: 94,
      /* ^ */
      CHAR_COLON: 58,
      /* : */
      CHAR_COMMA: 44,
      /* , */
      CHAR_DOT: 46,
      /* . */
      CHAR_DOUBLE_QUOTE: 34,
      /* " */
      CHAR_EQUAL: 61,
      /* = */
      CHAR_EXCLAMATION_MARK: 33,
      /* ! */
      CHAR_FORM_FEED: 12,
      /* \f */
      CHAR_FORWARD_SLASH: 47,
      /* / */
      CHAR_GRAVE_ACCENT: 96,
      /* ` */
      CHAR_HASH: 35,
      /* # */
      CHAR_HYPHEN_MINUS: 45,
      /* - */
      CHAR_LEFT_ANGLE_BRACKET: 60,
      /* < */
      CHAR_LEFT_CURLY_BRACE: 123,
      /* { */
      CHAR_LEFT_SQUARE_BRACKET: 91,
      /* [ */
      CHAR_LINE_FEED: 10,
      /* \n */
      CHAR_NO_BREAK_SPACE: 160,
      /* \u00A0 */
      CHAR_PERCENT: 37,
      /* % */
      CHAR_PLUS: 43,
      /* + */
      CHAR_QUESTION_MARK: 63,
      /* ? */
      CHAR_RIGHT_ANGLE_BRACKET: 62,
      /* > */
      CHAR_RIGHT_CURLY_BRACE: 125,
      /* } */
      CHAR_RIGHT_SQUARE_BRACKET: 93,
      /* ] */
      CHAR_SEMICOLON: 59,
      /* ; */
      CHAR_SINGLE_QUOTE: 39,
      /* ' */
      CHAR_SPACE: 32,
      /*   */
      CHAR_TAB: 9,
      /* \t */
      CHAR_UNDERSCORE: 95,
      /* _ */
      CHAR_VERTICAL_LINE: 124,
      /* | */
      CHAR_ZERO_WIDTH_NOBREAK_SPACE: 65279,
      /* \uFEFF */
      /**
       * Create EXTGLOB_CHARS
       */
      extglobChars(chars) {
        return {
          "!": { type: "negate", open: "(?:(?!(?:", close: `))${chars.STAR})` },
          "?": { type: "qmark", open: "(?:", close: ")?" },
          "+": { type: "plus", open: "(?:", close: ")+" },
          "*": { type: "star", open: "(?:", close: ")*" },
          "@": { type: "at", open: "(?:", close: ")" }
        };
      },
      /**
       * Create GLOB_CHARS
       */
      globChars(win32) {
        return win32 === true ? WINDOWS_CHARS : POSIX_CHARS;
      }
    };
  }
});

// node_modules/picomatch/lib/utils.js
var require_utils = __commonJS({
  "node_modules/picomatch/lib/utils.js"(exports) {
    "use strict";
    var {
      REGEX_BACKSLASH,
      REGEX_REMOVE_BACKSLASH,
      REGEX_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_GLOBAL
    } = require_constants();
    exports.isObject = (val) => val !== null && typeof val === "object" && !Array.isArray(val);
    exports.hasRegexChars = (str2) => REGEX_SPECIAL_CHARS.test(str2);
    exports.isRegexChar = (str2) => str2.length === 1 && exports.hasRegexChars(str2);
    exports.escapeRegex = (str2) => str2.replace(REGEX_SPECIAL_CHARS_GLOBAL, "\\$1");
    exports.toPosixSlashes = (str2) => str2.replace(REGEX_BACKSLASH, "/");
    exports.isWindows = () => {
      if (typeof navigator !== "undefined" && navigator.platform) {
        const platform = navigator.platform.toLowerCase();
        return platform === "win32" || platform === "windows";
      }
      if (typeof process !== "undefined" && process.platform) {
        return process.platform === "win32";
      }
      return false;
    };
    exports.removeBackslashes = (str2) => {
      return str2.replace(REGEX_REMOVE_BACKSLASH, (match) => {
        return match === "\\" ? "" : match;
      });
    };
    exports.escapeLast = (input, char, lastIdx) => {
      const idx = input.lastIndexOf(char, lastIdx);
      if (idx === -1) return input;
      if (input[idx - 1] === "\\") return exports.escapeLast(input, char, idx - 1);
      return `${input.slice(0, idx)}\\${input.slice(idx)}`;
    };
    exports.removePrefix = (input, state = {}) => {
      let output = input;
      if (output.startsWith("./")) {
        output = output.slice(2);
        state.prefix = "./";
      }
      return output;
    };
    exports.wrapOutput = (input, state = {}, options = {}) => {
      const prepend = options.contains ? "" : "^";
      const append = options.contains ? "" : "$";
      let output = `${prepend}(?:${input})${append}`;
      if (state.negated === true) {
        output = `(?:^(?!${output}).*$)`;
      }
      return output;
    };
    exports.basename = (path, { windows } = {}) => {
      const segs = path.split(windows ? /[\\/]/ : "/");
      const last = segs[segs.length - 1];
      if (last === "") {
        return segs[segs.length - 2];
      }
      return last;
    };
  }
});

// node_modules/picomatch/lib/scan.js
var require_scan = __commonJS({
  "node_modules/picomatch/lib/scan.js"(exports, module) {
    "use strict";
    var utils = require_utils();
    var {
      CHAR_ASTERISK,
      /* * */
      CHAR_AT,
      /* @ */
      CHAR_BACKWARD_SLASH,
      /* \ */
      CHAR_COMMA,
      /* , */
      CHAR_DOT,
      /* . */
      CHAR_EXCLAMATION_MARK,
      /* ! */
      CHAR_FORWARD_SLASH,
      /* / */
      CHAR_LEFT_CURLY_BRACE,
      /* { */
      CHAR_LEFT_PARENTHESES,
      /* ( */
      CHAR_LEFT_SQUARE_BRACKET,
      /* [ */
      CHAR_PLUS,
      /* + */
      CHAR_QUESTION_MARK,
      /* ? */
      CHAR_RIGHT_CURLY_BRACE,
      /* } */
      CHAR_RIGHT_PARENTHESES,
      /* ) */
      CHAR_RIGHT_SQUARE_BRACKET
      /* ] */
    } = require_constants();
    var isPathSeparator = (code) => {
      return code === CHAR_FORWARD_SLASH || code === CHAR_BACKWARD_SLASH;
    };
    var depth = (token) => {
      if (token.isPrefix !== true) {
        token.depth = token.isGlobstar ? Infinity : 1;
      }
    };
    var scan = (input, options) => {
      const opts = options || {};
      const length = input.length - 1;
      const scanToEnd = opts.parts === true || opts.tokens === true || opts.scanToEnd === true;
      const slashes = [];
      const tokens = [];
      const parts = [];
      let str2 = input;
      let index = -1;
      let start = 0;
      let lastIndex = 0;
      let isBrace = false;
      let isBracket = false;
      let isGlob = false;
      let isExtglob = false;
      let isGlobstar = false;
      let braceEscaped = false;
      let backslashes = false;
      let negated = false;
      let negatedExtglob = false;
      let finished = false;
      let braces = 0;
      let prev;
      let code;
      let token = { value: "", depth: 0, isGlob: false };
      const eos = () => index >= length;
      const peek = () => str2.charCodeAt(index + 1);
      const advance = () => {
        prev = code;
        return str2.charCodeAt(++index);
      };
      while (index < length) {
        code = advance();
        let next;
        if (code === CHAR_BACKWARD_SLASH) {
          backslashes = token.backslashes = true;
          code = advance();
          if (code === CHAR_LEFT_CURLY_BRACE) {
            braceEscaped = true;
          }
          continue;
        }
        if (braceEscaped === true || code === CHAR_LEFT_CURLY_BRACE) {
          braces++;
          while (eos() !== true && (code = advance())) {
            if (code === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (code === CHAR_LEFT_CURLY_BRACE) {
              braces++;
              continue;
            }
            if (braceEscaped !== true && code === CHAR_DOT && (code = advance()) === CHAR_DOT) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (braceEscaped !== true && code === CHAR_COMMA) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (code === CHAR_RIGHT_CURLY_BRACE) {
              braces--;
              if (braces === 0) {
                braceEscaped = false;
                isBrace = token.isBrace = true;
                finished = true;
                break;
              }
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_FORWARD_SLASH) {
          slashes.push(index);
          tokens.push(token);
          token = { value: "", depth: 0, isGlob: false };
          if (finished === true) continue;
          if (prev === CHAR_DOT && index === start + 1) {
            start += 2;
            continue;
          }
          lastIndex = index + 1;
          continue;
        }
        if (opts.noext !== true) {
          const isExtglobChar = code === CHAR_PLUS || code === CHAR_AT || code === CHAR_ASTERISK || code === CHAR_QUESTION_MARK || code === CHAR_EXCLAMATION_MARK;
          if (isExtglobChar === true && peek() === CHAR_LEFT_PARENTHESES) {
            isGlob = token.isGlob = true;
            isExtglob = token.isExtglob = true;
            finished = true;
            if (code === CHAR_EXCLAMATION_MARK && index === start) {
              negatedExtglob = true;
            }
            if (scanToEnd === true) {
              let parens = 0;
              while (eos() !== true && (code = advance())) {
                if (code === CHAR_BACKWARD_SLASH) {
                  backslashes = token.backslashes = true;
                  advance();
                  continue;
                }
                if (code === CHAR_LEFT_PARENTHESES) {
                  parens++;
                  continue;
                }
                if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                  finished = true;
                  break;
                }
              }
              continue;
            }
            break;
          }
        }
        if (code === CHAR_ASTERISK) {
          if (prev === CHAR_ASTERISK) isGlobstar = token.isGlobstar = true;
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_QUESTION_MARK) {
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_LEFT_SQUARE_BRACKET) {
          while (eos() !== true && (next = advance())) {
            if (next === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (next === CHAR_RIGHT_SQUARE_BRACKET) {
              isBracket = token.isBracket = true;
              isGlob = token.isGlob = true;
              finished = true;
              break;
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (opts.nonegate !== true && code === CHAR_EXCLAMATION_MARK && index === start) {
          negated = token.negated = true;
          start++;
          continue;
        }
        if (opts.noparen !== true && code === CHAR_LEFT_PARENTHESES) {
          isGlob = token.isGlob = true;
          if (scanToEnd === true) {
            let parens = 1;
            while (eos() !== true && (code = advance())) {
              if (code === CHAR_BACKWARD_SLASH) {
                backslashes = token.backslashes = true;
                advance();
                continue;
              }
              if (code === CHAR_LEFT_PARENTHESES) {
                parens++;
                continue;
              }
              if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                finished = true;
                break;
              }
            }
            continue;
          }
          break;
        }
        if (isGlob === true) {
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
      }
      if (opts.noext === true) {
        isExtglob = false;
        isGlob = false;
      }
      let base = str2;
      let prefix = "";
      let glob = "";
      if (start > 0) {
        prefix = str2.slice(0, start);
        str2 = str2.slice(start);
        lastIndex -= start;
      }
      if (base && isGlob === true && lastIndex > 0) {
        base = str2.slice(0, lastIndex);
        glob = str2.slice(lastIndex);
      } else if (isGlob === true) {
        base = "";
        glob = str2;
      } else {
        base = str2;
      }
      if (base && base !== "" && base !== "/" && base !== str2) {
        if (isPathSeparator(base.charCodeAt(base.length - 1))) {
          base = base.slice(0, -1);
        }
      }
      if (opts.unescape === true) {
        if (glob) glob = utils.removeBackslashes(glob);
        if (base && backslashes === true) {
          base = utils.removeBackslashes(base);
        }
      }
      const state = {
        prefix,
        input,
        start,
        base,
        glob,
        isBrace,
        isBracket,
        isGlob,
        isExtglob,
        isGlobstar,
        negated,
        negatedExtglob
      };
      if (opts.tokens === true) {
        state.maxDepth = 0;
        if (!isPathSeparator(code)) {
          tokens.push(token);
        }
        state.tokens = tokens;
      }
      if (opts.parts === true || opts.tokens === true) {
        let prevIndex;
        for (let idx = 0; idx < slashes.length; idx++) {
          const n2 = prevIndex !== void 0 ? prevIndex + 1 : start;
          const i = slashes[idx];
          const value2 = input.slice(n2, i);
          if (opts.tokens) {
            if (idx === 0 && start !== 0) {
              tokens[idx].isPrefix = true;
              tokens[idx].value = prefix;
            } else {
              tokens[idx].value = value2;
            }
            depth(tokens[idx]);
            state.maxDepth += tokens[idx].depth;
          }
          if (i >= start) {
            parts.push(value2);
            prevIndex = i;
          }
        }
        const n = prevIndex !== void 0 ? prevIndex + 1 : start;
        const value = input.slice(n);
        parts.push(value);
        if (opts.tokens && prevIndex && prevIndex + 1 < input.length) {
          tokens[tokens.length - 1].value = value;
          depth(tokens[tokens.length - 1]);
          state.maxDepth += tokens[tokens.length - 1].depth;
        }
        state.slashes = slashes;
        state.parts = parts;
      }
      return state;
    };
    module.exports = scan;
  }
});

// node_modules/picomatch/lib/parse.js
var require_parse = __commonJS({
  "node_modules/picomatch/lib/parse.js"(exports, module) {
    "use strict";
    var constants = require_constants();
    var utils = require_utils();
    var {
      MAX_LENGTH,
      POSIX_REGEX_SOURCE,
      REGEX_NON_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_BACKREF,
      REPLACEMENTS
    } = constants;
    var expandRange = (args, options) => {
      if (typeof options.expandRange === "function") {
        return options.expandRange(...args, options);
      }
      args.sort();
      const value = `[${args.join("-")}]`;
      try {
        new RegExp(value);
      } catch (ex) {
        return args.map((v) => utils.escapeRegex(v)).join("..");
      }
      return value;
    };
    var syntaxError = (type, char) => {
      return `Missing ${type}: "${char}" - use "\\\\${char}" to match literal characters`;
    };
    var splitTopLevel = (input) => {
      const parts = [];
      let bracket = 0;
      let paren = 0;
      let quote = 0;
      let value = "";
      let escaped = false;
      for (const ch of input) {
        if (escaped === true) {
          value += ch;
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          value += ch;
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote = quote === 1 ? 0 : 1;
          value += ch;
          continue;
        }
        if (quote === 0) {
          if (ch === "[") {
            bracket++;
          } else if (ch === "]" && bracket > 0) {
            bracket--;
          } else if (bracket === 0) {
            if (ch === "(") {
              paren++;
            } else if (ch === ")" && paren > 0) {
              paren--;
            } else if (ch === "|" && paren === 0) {
              parts.push(value);
              value = "";
              continue;
            }
          }
        }
        value += ch;
      }
      parts.push(value);
      return parts;
    };
    var isPlainBranch = (branch) => {
      let escaped = false;
      for (const ch of branch) {
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (/[?*+@!()[\]{}]/.test(ch)) {
          return false;
        }
      }
      return true;
    };
    var normalizeSimpleBranch = (branch) => {
      let value = branch.trim();
      let changed = true;
      while (changed === true) {
        changed = false;
        if (/^@\([^\\()[\]{}|]+\)$/.test(value)) {
          value = value.slice(2, -1);
          changed = true;
        }
      }
      if (!isPlainBranch(value)) {
        return;
      }
      return value.replace(/\\(.)/g, "$1");
    };
    var hasRepeatedCharPrefixOverlap = (branches) => {
      const values = branches.map(normalizeSimpleBranch).filter(Boolean);
      for (let i = 0; i < values.length; i++) {
        for (let j = i + 1; j < values.length; j++) {
          const a = values[i];
          const b = values[j];
          const char = a[0];
          if (!char || a !== char.repeat(a.length) || b !== char.repeat(b.length)) {
            continue;
          }
          if (a === b || a.startsWith(b) || b.startsWith(a)) {
            return true;
          }
        }
      }
      return false;
    };
    var parseRepeatedExtglob = (pattern, requireEnd = true) => {
      if (pattern[0] !== "+" && pattern[0] !== "*" || pattern[1] !== "(") {
        return;
      }
      let bracket = 0;
      let paren = 0;
      let quote = 0;
      let escaped = false;
      for (let i = 1; i < pattern.length; i++) {
        const ch = pattern[i];
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote = quote === 1 ? 0 : 1;
          continue;
        }
        if (quote === 1) {
          continue;
        }
        if (ch === "[") {
          bracket++;
          continue;
        }
        if (ch === "]" && bracket > 0) {
          bracket--;
          continue;
        }
        if (bracket > 0) {
          continue;
        }
        if (ch === "(") {
          paren++;
          continue;
        }
        if (ch === ")") {
          paren--;
          if (paren === 0) {
            if (requireEnd === true && i !== pattern.length - 1) {
              return;
            }
            return {
              type: pattern[0],
              body: pattern.slice(2, i),
              end: i
            };
          }
        }
      }
    };
    var buildCharClassStar = (chars) => {
      const source = chars.length === 1 ? utils.escapeRegex(chars[0]) : `[${chars.map((ch) => utils.escapeRegex(ch)).join("")}]`;
      return `${source}*`;
    };
    var getStarExtglobSequenceChars = (pattern) => {
      let index = 0;
      const chars = [];
      while (index < pattern.length) {
        const match = parseRepeatedExtglob(pattern.slice(index), false);
        if (!match || match.type !== "*") {
          return;
        }
        const branches = splitTopLevel(match.body).map((branch2) => branch2.trim());
        if (branches.length !== 1) {
          return;
        }
        const branch = normalizeSimpleBranch(branches[0]);
        if (!branch || branch.length !== 1) {
          return;
        }
        chars.push(branch);
        index += match.end + 1;
      }
      if (chars.length < 1) {
        return;
      }
      return chars;
    };
    var repeatedExtglobRecursion = (pattern) => {
      let depth = 0;
      let value = pattern.trim();
      let match = parseRepeatedExtglob(value);
      while (match) {
        depth++;
        value = match.body.trim();
        match = parseRepeatedExtglob(value);
      }
      return depth;
    };
    var analyzeRepeatedExtglob = (body, options) => {
      if (options.maxExtglobRecursion === false) {
        return { risky: false };
      }
      const max = typeof options.maxExtglobRecursion === "number" ? options.maxExtglobRecursion : constants.DEFAULT_MAX_EXTGLOB_RECURSION;
      const branches = splitTopLevel(body).map((branch) => branch.trim());
      if (branches.length > 1) {
        if (branches.some((branch) => branch === "") || branches.some((branch) => /^[*?]+$/.test(branch)) || hasRepeatedCharPrefixOverlap(branches)) {
          return { risky: true };
        }
      }
      const safeChars = [];
      let sawStarSequence = false;
      let combinable = true;
      for (const branch of branches) {
        const chars = getStarExtglobSequenceChars(branch);
        if (chars) {
          sawStarSequence = true;
          safeChars.push(...chars);
          continue;
        }
        const literal = normalizeSimpleBranch(branch);
        if (literal && literal.length === 1) {
          safeChars.push(literal);
          continue;
        }
        combinable = false;
        if (repeatedExtglobRecursion(branch) > max) {
          return { risky: true };
        }
      }
      if (sawStarSequence) {
        return combinable ? { risky: true, safeOutput: buildCharClassStar([...new Set(safeChars)]) } : { risky: true };
      }
      return { risky: false };
    };
    var parse = (input, options) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected a string");
      }
      input = REPLACEMENTS[input] || input;
      const opts = { ...options };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      let len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      const bos = { type: "bos", value: "", output: opts.prepend || "" };
      const tokens = [bos];
      const capture = opts.capture ? "" : "?:";
      const PLATFORM_CHARS = constants.globChars(opts.windows);
      const EXTGLOB_CHARS = constants.extglobChars(PLATFORM_CHARS);
      const {
        DOT_LITERAL,
        PLUS_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOT_SLASH,
        NO_DOTS_SLASH,
        QMARK,
        QMARK_NO_DOT,
        STAR,
        START_ANCHOR
      } = PLATFORM_CHARS;
      const globstar = (opts2) => {
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const nodot = opts.dot ? "" : NO_DOT;
      const qmarkNoDot = opts.dot ? QMARK : QMARK_NO_DOT;
      let star = opts.bash === true ? globstar(opts) : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      if (typeof opts.noext === "boolean") {
        opts.noextglob = opts.noext;
      }
      const state = {
        input,
        index: -1,
        start: 0,
        dot: opts.dot === true,
        consumed: "",
        output: "",
        prefix: "",
        backtrack: false,
        negated: false,
        brackets: 0,
        braces: 0,
        parens: 0,
        quotes: 0,
        globstar: false,
        tokens
      };
      input = utils.removePrefix(input, state);
      len = input.length;
      const extglobs = [];
      const braces = [];
      const stack = [];
      let prev = bos;
      let value;
      const eos = () => state.index === len - 1;
      const peek = state.peek = (n = 1) => input[state.index + n];
      const advance = state.advance = () => input[++state.index] || "";
      const remaining = () => input.slice(state.index + 1);
      const consume = (value2 = "", num2 = 0) => {
        state.consumed += value2;
        state.index += num2;
      };
      const append = (token) => {
        state.output += token.output != null ? token.output : token.value;
        consume(token.value);
      };
      const negate = () => {
        let count = 1;
        while (peek() === "!" && (peek(2) !== "(" || peek(3) === "?")) {
          advance();
          state.start++;
          count++;
        }
        if (count % 2 === 0) {
          return false;
        }
        state.negated = true;
        state.start++;
        return true;
      };
      const increment = (type) => {
        state[type]++;
        stack.push(type);
      };
      const decrement = (type) => {
        state[type]--;
        stack.pop();
      };
      const push = (tok) => {
        if (prev.type === "globstar") {
          const isBrace = state.braces > 0 && (tok.type === "comma" || tok.type === "brace");
          const isExtglob = tok.extglob === true || extglobs.length && (tok.type === "pipe" || tok.type === "paren");
          if (tok.type !== "slash" && tok.type !== "paren" && !isBrace && !isExtglob) {
            state.output = state.output.slice(0, -prev.output.length);
            prev.type = "star";
            prev.value = "*";
            prev.output = star;
            state.output += prev.output;
          }
        }
        if (extglobs.length && tok.type !== "paren") {
          extglobs[extglobs.length - 1].inner += tok.value;
        }
        if (tok.value || tok.output) append(tok);
        if (prev && prev.type === "text" && tok.type === "text") {
          prev.output = (prev.output || prev.value) + tok.value;
          prev.value += tok.value;
          return;
        }
        tok.prev = prev;
        tokens.push(tok);
        prev = tok;
      };
      const extglobOpen = (type, value2) => {
        const token = { ...EXTGLOB_CHARS[value2], conditions: 1, inner: "" };
        token.prev = prev;
        token.parens = state.parens;
        token.output = state.output;
        token.startIndex = state.index;
        token.tokensIndex = tokens.length;
        const output = (opts.capture ? "(" : "") + token.open;
        increment("parens");
        push({ type, value: value2, output: state.output ? "" : ONE_CHAR });
        push({ type: "paren", extglob: true, value: advance(), output });
        extglobs.push(token);
      };
      const extglobClose = (token) => {
        const literal = input.slice(token.startIndex, state.index + 1);
        const body = input.slice(token.startIndex + 2, state.index);
        const analysis = analyzeRepeatedExtglob(body, opts);
        if ((token.type === "plus" || token.type === "star") && analysis.risky) {
          const safeOutput = analysis.safeOutput ? (token.output ? "" : ONE_CHAR) + (opts.capture ? `(${analysis.safeOutput})` : analysis.safeOutput) : void 0;
          const open = tokens[token.tokensIndex];
          open.type = "text";
          open.value = literal;
          open.output = safeOutput || utils.escapeRegex(literal);
          for (let i = token.tokensIndex + 1; i < tokens.length; i++) {
            tokens[i].value = "";
            tokens[i].output = "";
            delete tokens[i].suffix;
          }
          state.output = token.output + open.output;
          state.backtrack = true;
          push({ type: "paren", extglob: true, value, output: "" });
          decrement("parens");
          return;
        }
        let output = token.close + (opts.capture ? ")" : "");
        let rest;
        if (token.type === "negate") {
          let extglobStar = star;
          if (token.inner && token.inner.length > 1 && token.inner.includes("/")) {
            extglobStar = globstar(opts);
          }
          if (extglobStar !== star || eos() || /^\)+$/.test(remaining())) {
            output = token.close = `)$))${extglobStar}`;
          }
          if (token.inner.includes("*") && (rest = remaining()) && /^\.[^\\/.]+$/.test(rest)) {
            const expression = parse(rest, { ...options, fastpaths: false }).output;
            output = token.close = `)${expression})${extglobStar})`;
          }
          if (token.prev.type === "bos") {
            state.negatedExtglob = true;
          }
        }
        push({ type: "paren", extglob: true, value, output });
        decrement("parens");
      };
      if (opts.fastpaths !== false && !/(^[*!]|[/()[\]{}"])/.test(input)) {
        let backslashes = false;
        let output = input.replace(REGEX_SPECIAL_CHARS_BACKREF, (m, esc, chars, first, rest, index) => {
          if (first === "\\") {
            backslashes = true;
            return m;
          }
          if (first === "?") {
            if (esc) {
              return esc + first + (rest ? QMARK.repeat(rest.length) : "");
            }
            if (index === 0) {
              return qmarkNoDot + (rest ? QMARK.repeat(rest.length) : "");
            }
            return QMARK.repeat(chars.length);
          }
          if (first === ".") {
            return DOT_LITERAL.repeat(chars.length);
          }
          if (first === "*") {
            if (esc) {
              return esc + first + (rest ? star : "");
            }
            return star;
          }
          return esc ? m : `\\${m}`;
        });
        if (backslashes === true) {
          if (opts.unescape === true) {
            output = output.replace(/\\/g, "");
          } else {
            output = output.replace(/\\+/g, (m) => {
              return m.length % 2 === 0 ? "\\\\" : m ? "\\" : "";
            });
          }
        }
        if (output === input && opts.contains === true) {
          state.output = input;
          return state;
        }
        state.output = utils.wrapOutput(output, state, options);
        return state;
      }
      while (!eos()) {
        value = advance();
        if (value === "\0") {
          continue;
        }
        if (value === "\\") {
          const next = peek();
          if (next === "/" && opts.bash !== true) {
            continue;
          }
          if (next === "." || next === ";") {
            continue;
          }
          if (!next) {
            value += "\\";
            push({ type: "text", value });
            continue;
          }
          const match = /^\\+/.exec(remaining());
          let slashes = 0;
          if (match && match[0].length > 2) {
            slashes = match[0].length;
            state.index += slashes;
            if (slashes % 2 !== 0) {
              value += "\\";
            }
          }
          if (opts.unescape === true) {
            value = advance();
          } else {
            value += advance();
          }
          if (state.brackets === 0) {
            push({ type: "text", value });
            continue;
          }
        }
        if (state.brackets > 0 && (value !== "]" || prev.value === "[" || prev.value === "[^")) {
          if (opts.posix !== false && value === ":") {
            const inner = prev.value.slice(1);
            if (inner.includes("[")) {
              prev.posix = true;
              if (inner.includes(":")) {
                const idx = prev.value.lastIndexOf("[");
                const pre = prev.value.slice(0, idx);
                const rest2 = prev.value.slice(idx + 2);
                const posix = POSIX_REGEX_SOURCE[rest2];
                if (posix) {
                  prev.value = pre + posix;
                  state.backtrack = true;
                  advance();
                  if (!bos.output && tokens.indexOf(prev) === 1) {
                    bos.output = ONE_CHAR;
                  }
                  continue;
                }
              }
            }
          }
          if (value === "[" && peek() !== ":" || value === "-" && peek() === "]") {
            value = `\\${value}`;
          }
          if (value === "]" && (prev.value === "[" || prev.value === "[^")) {
            value = `\\${value}`;
          }
          if (opts.posix === true && value === "!" && prev.value === "[") {
            value = "^";
          }
          prev.value += value;
          append({ value });
          continue;
        }
        if (state.quotes === 1 && value !== '"') {
          value = utils.escapeRegex(value);
          prev.value += value;
          append({ value });
          continue;
        }
        if (value === '"') {
          state.quotes = state.quotes === 1 ? 0 : 1;
          if (opts.keepQuotes === true) {
            push({ type: "text", value });
          }
          continue;
        }
        if (value === "(") {
          increment("parens");
          push({ type: "paren", value });
          continue;
        }
        if (value === ")") {
          if (state.parens === 0 && opts.strictBrackets === true) {
            throw new SyntaxError(syntaxError("opening", "("));
          }
          const extglob = extglobs[extglobs.length - 1];
          if (extglob && state.parens === extglob.parens + 1) {
            extglobClose(extglobs.pop());
            continue;
          }
          push({ type: "paren", value, output: state.parens ? ")" : "\\)" });
          decrement("parens");
          continue;
        }
        if (value === "[") {
          if (opts.nobracket === true || !remaining().includes("]")) {
            if (opts.nobracket !== true && opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("closing", "]"));
            }
            value = `\\${value}`;
          } else {
            increment("brackets");
          }
          push({ type: "bracket", value });
          continue;
        }
        if (value === "]") {
          if (opts.nobracket === true || prev && prev.type === "bracket" && prev.value.length === 1) {
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          if (state.brackets === 0) {
            if (opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("opening", "["));
            }
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          decrement("brackets");
          const prevValue = prev.value.slice(1);
          if (prev.posix !== true && prevValue[0] === "^" && !prevValue.includes("/")) {
            value = `/${value}`;
          }
          prev.value += value;
          append({ value });
          if (opts.literalBrackets === false || utils.hasRegexChars(prevValue)) {
            continue;
          }
          const escaped = utils.escapeRegex(prev.value);
          state.output = state.output.slice(0, -prev.value.length);
          if (opts.literalBrackets === true) {
            state.output += escaped;
            prev.value = escaped;
            continue;
          }
          prev.value = `(${capture}${escaped}|${prev.value})`;
          state.output += prev.value;
          continue;
        }
        if (value === "{" && opts.nobrace !== true) {
          increment("braces");
          const open = {
            type: "brace",
            value,
            output: "(",
            outputIndex: state.output.length,
            tokensIndex: state.tokens.length
          };
          braces.push(open);
          push(open);
          continue;
        }
        if (value === "}") {
          const brace = braces[braces.length - 1];
          if (opts.nobrace === true || !brace) {
            push({ type: "text", value, output: value });
            continue;
          }
          let output = ")";
          if (brace.dots === true) {
            const arr = tokens.slice();
            const range = [];
            for (let i = arr.length - 1; i >= 0; i--) {
              tokens.pop();
              if (arr[i].type === "brace") {
                break;
              }
              if (arr[i].type !== "dots") {
                range.unshift(arr[i].value);
              }
            }
            output = expandRange(range, opts);
            state.backtrack = true;
          }
          if (brace.comma !== true && brace.dots !== true) {
            const out = state.output.slice(0, brace.outputIndex);
            const toks = state.tokens.slice(brace.tokensIndex);
            brace.value = brace.output = "\\{";
            value = output = "\\}";
            state.output = out;
            for (const t of toks) {
              state.output += t.output || t.value;
            }
          }
          push({ type: "brace", value, output });
          decrement("braces");
          braces.pop();
          continue;
        }
        if (value === "|") {
          if (extglobs.length > 0) {
            extglobs[extglobs.length - 1].conditions++;
          }
          push({ type: "text", value });
          continue;
        }
        if (value === ",") {
          let output = value;
          const brace = braces[braces.length - 1];
          if (brace && stack[stack.length - 1] === "braces") {
            brace.comma = true;
            output = "|";
          }
          push({ type: "comma", value, output });
          continue;
        }
        if (value === "/") {
          if (prev.type === "dot" && state.index === state.start + 1) {
            state.start = state.index + 1;
            state.consumed = "";
            state.output = "";
            tokens.pop();
            prev = bos;
            continue;
          }
          push({ type: "slash", value, output: SLASH_LITERAL });
          continue;
        }
        if (value === ".") {
          if (state.braces > 0 && prev.type === "dot") {
            if (prev.value === ".") prev.output = DOT_LITERAL;
            const brace = braces[braces.length - 1];
            prev.type = "dots";
            prev.output += value;
            prev.value += value;
            brace.dots = true;
            continue;
          }
          if (state.braces + state.parens === 0 && prev.type !== "bos" && prev.type !== "slash") {
            push({ type: "text", value, output: DOT_LITERAL });
            continue;
          }
          push({ type: "dot", value, output: DOT_LITERAL });
          continue;
        }
        if (value === "?") {
          const isGroup = prev && prev.value === "(";
          if (!isGroup && opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("qmark", value);
            continue;
          }
          if (prev && prev.type === "paren") {
            const next = peek();
            let output = value;
            if (prev.value === "(" && !/[!=<:]/.test(next) || next === "<" && !/<([!=]|\w+>)/.test(remaining())) {
              output = `\\${value}`;
            }
            push({ type: "text", value, output });
            continue;
          }
          if (opts.dot !== true && (prev.type === "slash" || prev.type === "bos")) {
            push({ type: "qmark", value, output: QMARK_NO_DOT });
            continue;
          }
          push({ type: "qmark", value, output: QMARK });
          continue;
        }
        if (value === "!") {
          if (opts.noextglob !== true && peek() === "(") {
            if (peek(2) !== "?" || !/[!=<:]/.test(peek(3))) {
              extglobOpen("negate", value);
              continue;
            }
          }
          if (opts.nonegate !== true && state.index === 0) {
            negate();
            continue;
          }
        }
        if (value === "+") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("plus", value);
            continue;
          }
          if (prev && prev.value === "(" || opts.regex === false) {
            push({ type: "plus", value, output: PLUS_LITERAL });
            continue;
          }
          if (prev && (prev.type === "bracket" || prev.type === "paren" || prev.type === "brace") || state.parens > 0) {
            push({ type: "plus", value });
            continue;
          }
          push({ type: "plus", value: PLUS_LITERAL });
          continue;
        }
        if (value === "@") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            push({ type: "at", extglob: true, value, output: "" });
            continue;
          }
          push({ type: "text", value });
          continue;
        }
        if (value !== "*") {
          if (value === "$" || value === "^") {
            value = `\\${value}`;
          }
          const match = REGEX_NON_SPECIAL_CHARS.exec(remaining());
          if (match) {
            value += match[0];
            state.index += match[0].length;
          }
          push({ type: "text", value });
          continue;
        }
        if (prev && (prev.type === "globstar" || prev.star === true)) {
          prev.type = "star";
          prev.star = true;
          prev.value += value;
          prev.output = star;
          state.backtrack = true;
          state.globstar = true;
          consume(value);
          continue;
        }
        let rest = remaining();
        if (opts.noextglob !== true && /^\([^?]/.test(rest)) {
          extglobOpen("star", value);
          continue;
        }
        if (prev.type === "star") {
          if (opts.noglobstar === true) {
            consume(value);
            continue;
          }
          const prior = prev.prev;
          const before = prior.prev;
          const isStart = prior.type === "slash" || prior.type === "bos";
          const afterStar = before && (before.type === "star" || before.type === "globstar");
          if (opts.bash === true && (!isStart || rest[0] && rest[0] !== "/")) {
            push({ type: "star", value, output: "" });
            continue;
          }
          const isBrace = state.braces > 0 && (prior.type === "comma" || prior.type === "brace");
          const isExtglob = extglobs.length && (prior.type === "pipe" || prior.type === "paren");
          if (!isStart && prior.type !== "paren" && !isBrace && !isExtglob) {
            push({ type: "star", value, output: "" });
            continue;
          }
          while (rest.slice(0, 3) === "/**") {
            const after = input[state.index + 4];
            if (after && after !== "/") {
              break;
            }
            rest = rest.slice(3);
            consume("/**", 3);
          }
          const isEnd = eos() || state.parens > 0 && rest === ")".repeat(state.parens) && !extglobs.some((extglob) => extglob.type === "negate");
          if (prior.type === "bos" && eos()) {
            prev.type = "globstar";
            prev.value += value;
            prev.output = globstar(opts);
            state.output = prev.output;
            state.globstar = true;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && !afterStar && isEnd) {
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = globstar(opts) + (opts.strictSlashes ? ")" : "|$)");
            prev.value += value;
            state.globstar = true;
            state.output += prior.output + prev.output;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && rest[0] === "/") {
            const end = rest[1] !== void 0 ? "|$" : "";
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = `${globstar(opts)}${SLASH_LITERAL}|${SLASH_LITERAL}${end})`;
            prev.value += value;
            state.output += prior.output + prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          if (prior.type === "bos" && rest[0] === "/") {
            prev.type = "globstar";
            prev.value += value;
            prev.output = `(?:^|${SLASH_LITERAL}|${globstar(opts)}${SLASH_LITERAL})`;
            state.output = prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          state.output = state.output.slice(0, -prev.output.length);
          prev.type = "globstar";
          prev.output = globstar(opts);
          prev.value += value;
          state.output += prev.output;
          state.globstar = true;
          consume(value);
          continue;
        }
        const token = { type: "star", value, output: star };
        if (opts.bash === true) {
          token.output = ".*?";
          if (prev.type === "bos" || prev.type === "slash") {
            token.output = nodot + token.output;
          }
          push(token);
          continue;
        }
        if (prev && (prev.type === "bracket" || prev.type === "paren") && opts.regex === true) {
          token.output = value;
          push(token);
          continue;
        }
        if (state.index === state.start || prev.type === "slash" || prev.type === "dot") {
          if (prev.type === "dot") {
            state.output += NO_DOT_SLASH;
            prev.output += NO_DOT_SLASH;
          } else if (opts.dot === true) {
            state.output += NO_DOTS_SLASH;
            prev.output += NO_DOTS_SLASH;
          } else {
            state.output += nodot;
            prev.output += nodot;
          }
          if (peek() !== "*") {
            state.output += ONE_CHAR;
            prev.output += ONE_CHAR;
          }
        }
        push(token);
      }
      while (state.brackets > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "]"));
        state.output = utils.escapeLast(state.output, "[");
        decrement("brackets");
      }
      while (state.parens > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", ")"));
        state.output = utils.escapeLast(state.output, "(");
        decrement("parens");
      }
      while (state.braces > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "}"));
        state.output = utils.escapeLast(state.output, "{");
        decrement("braces");
      }
      if (opts.strictSlashes !== true && (prev.type === "star" || prev.type === "bracket")) {
        push({ type: "maybe_slash", value: "", output: `${SLASH_LITERAL}?` });
      }
      if (state.backtrack === true) {
        state.output = "";
        for (const token of state.tokens) {
          state.output += token.output != null ? token.output : token.value;
          if (token.suffix) {
            state.output += token.suffix;
          }
        }
      }
      return state;
    };
    parse.fastpaths = (input, options) => {
      const opts = { ...options };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      const len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      input = REPLACEMENTS[input] || input;
      const {
        DOT_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOTS,
        NO_DOTS_SLASH,
        STAR,
        START_ANCHOR
      } = constants.globChars(opts.windows);
      const nodot = opts.dot ? NO_DOTS : NO_DOT;
      const slashDot = opts.dot ? NO_DOTS_SLASH : NO_DOT;
      const capture = opts.capture ? "" : "?:";
      const state = { negated: false, prefix: "" };
      let star = opts.bash === true ? ".*?" : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      const globstar = (opts2) => {
        if (opts2.noglobstar === true) return star;
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const create = (str2) => {
        switch (str2) {
          case "*":
            return `${nodot}${ONE_CHAR}${star}`;
          case ".*":
            return `${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*.*":
            return `${nodot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*/*":
            return `${nodot}${star}${SLASH_LITERAL}${ONE_CHAR}${slashDot}${star}`;
          case "**":
            return nodot + globstar(opts);
          case "**/*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${ONE_CHAR}${star}`;
          case "**/*.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "**/.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${DOT_LITERAL}${ONE_CHAR}${star}`;
          default: {
            const match = /^(.*?)\.(\w+)$/.exec(str2);
            if (!match) return;
            const source2 = create(match[1]);
            if (!source2) return;
            return source2 + DOT_LITERAL + match[2];
          }
        }
      };
      const output = utils.removePrefix(input, state);
      let source = create(output);
      if (source && opts.strictSlashes !== true) {
        source += `${SLASH_LITERAL}?`;
      }
      return source;
    };
    module.exports = parse;
  }
});

// node_modules/picomatch/lib/picomatch.js
var require_picomatch = __commonJS({
  "node_modules/picomatch/lib/picomatch.js"(exports, module) {
    "use strict";
    var scan = require_scan();
    var parse = require_parse();
    var utils = require_utils();
    var constants = require_constants();
    var isObject = (val) => val && typeof val === "object" && !Array.isArray(val);
    var picomatch2 = (glob, options, returnState = false) => {
      if (Array.isArray(glob)) {
        const fns = glob.map((input) => picomatch2(input, options, returnState));
        const arrayMatcher = (str2) => {
          for (const isMatch of fns) {
            const state2 = isMatch(str2);
            if (state2) return state2;
          }
          return false;
        };
        return arrayMatcher;
      }
      const isState = isObject(glob) && glob.tokens && glob.input;
      if (glob === "" || typeof glob !== "string" && !isState) {
        throw new TypeError("Expected pattern to be a non-empty string");
      }
      const opts = options || {};
      const posix = opts.windows;
      const regex = isState ? picomatch2.compileRe(glob, options) : picomatch2.makeRe(glob, options, false, true);
      const state = regex.state;
      delete regex.state;
      let isIgnored = () => false;
      if (opts.ignore) {
        const ignoreOpts = { ...options, ignore: null, onMatch: null, onResult: null };
        isIgnored = picomatch2(opts.ignore, ignoreOpts, returnState);
      }
      const matcher = (input, returnObject = false) => {
        const { isMatch, match, output } = picomatch2.test(input, regex, options, { glob, posix });
        const result = { glob, state, regex, posix, input, output, match, isMatch };
        if (typeof opts.onResult === "function") {
          opts.onResult(result);
        }
        if (isMatch === false) {
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (isIgnored(input)) {
          if (typeof opts.onIgnore === "function") {
            opts.onIgnore(result);
          }
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (typeof opts.onMatch === "function") {
          opts.onMatch(result);
        }
        return returnObject ? result : true;
      };
      if (returnState) {
        matcher.state = state;
      }
      return matcher;
    };
    picomatch2.test = (input, regex, options, { glob, posix } = {}) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected input to be a string");
      }
      if (input === "") {
        return { isMatch: false, output: "" };
      }
      const opts = options || {};
      const format = opts.format || (posix ? utils.toPosixSlashes : null);
      let match = input === glob;
      let output = match && format ? format(input) : input;
      if (match === false) {
        output = format ? format(input) : input;
        match = output === glob;
      }
      if (match === false || opts.capture === true) {
        if (opts.matchBase === true || opts.basename === true) {
          match = picomatch2.matchBase(input, regex, options, posix);
        } else {
          match = regex.exec(output);
        }
      }
      return { isMatch: Boolean(match), match, output };
    };
    picomatch2.matchBase = (input, glob, options, posix = options && options.windows) => {
      const regex = glob instanceof RegExp ? glob : picomatch2.makeRe(glob, options);
      return regex.test(utils.basename(input, { windows: posix }));
    };
    picomatch2.isMatch = (str2, patterns, options) => picomatch2(patterns, options)(str2);
    picomatch2.parse = (pattern, options) => {
      if (Array.isArray(pattern)) return pattern.map((p) => picomatch2.parse(p, options));
      return parse(pattern, { ...options, fastpaths: false });
    };
    picomatch2.scan = (input, options) => scan(input, options);
    picomatch2.compileRe = (state, options, returnOutput = false, returnState = false) => {
      if (returnOutput === true) {
        return state.output;
      }
      const opts = options || {};
      const prepend = opts.contains ? "" : "^";
      const append = opts.contains ? "" : "$";
      let source = `${prepend}(?:${state.output})${append}`;
      if (state && state.negated === true) {
        source = `^(?!${source}).*$`;
      }
      const regex = picomatch2.toRegex(source, options);
      if (returnState === true) {
        regex.state = state;
      }
      return regex;
    };
    picomatch2.makeRe = (input, options = {}, returnOutput = false, returnState = false) => {
      if (!input || typeof input !== "string") {
        throw new TypeError("Expected a non-empty string");
      }
      let parsed = { negated: false, fastpaths: true };
      if (options.fastpaths !== false && (input[0] === "." || input[0] === "*")) {
        parsed.output = parse.fastpaths(input, options);
      }
      if (!parsed.output) {
        parsed = parse(input, options);
      }
      return picomatch2.compileRe(parsed, options, returnOutput, returnState);
    };
    picomatch2.toRegex = (source, options) => {
      try {
        const opts = options || {};
        return new RegExp(source, opts.flags || (opts.nocase ? "i" : ""));
      } catch (err) {
        if (options && options.debug === true) throw err;
        return /$^/;
      }
    };
    picomatch2.constants = constants;
    module.exports = picomatch2;
  }
});

// node_modules/picomatch/index.js
var require_picomatch2 = __commonJS({
  "node_modules/picomatch/index.js"(exports, module) {
    "use strict";
    var pico = require_picomatch();
    var utils = require_utils();
    function picomatch2(glob, options, returnState = false) {
      if (options && (options.windows === null || options.windows === void 0)) {
        options = { ...options, windows: utils.isWindows() };
      }
      return pico(glob, options, returnState);
    }
    Object.assign(picomatch2, pico);
    module.exports = picomatch2;
  }
});

// checks/progress/verdict.ts
var ROLES = {
  "no-milestone": "stall",
  "identical-streak": "evidence",
  "short-cycle": "evidence",
  "revert-cycle": "evidence",
  "no-new-information": "evidence",
  budget: "budget"
};
var findingRole = (kind) => ROLES[kind];
var isStalled = (findings) => findings.some((f) => ROLES[f.kind] === "stall");

// checks/progress/render.ts
var BUDGET_LABELS = [
  ["model_calls", "model calls"],
  ["tool_calls", "tool calls"],
  ["executed_tool_calls", "executed tool calls"],
  ["max_tool_calls_per_turn", "most tool calls in one turn"],
  ["max_tool_calls_per_model_call", "most tool calls in one model call"],
  ["turns", "turns"],
  ["input_tokens", "billed input tokens"],
  ["cached_input_tokens", "of them cached"],
  ["output_tokens", "output tokens"],
  ["peak_context_tokens", "peak context (tokens)"],
  ["cost_usd", "cost (USD)"]
];
var KIND_WORDS = {
  "identical-streak": "the same call again and again",
  "short-cycle": "a short cycle of calls",
  "revert-cycle": "edit \u2192 run \u2192 restore, again and again",
  "no-new-information": "nothing new learned",
  "no-milestone": "no progress (no milestone)",
  budget: "over a budget"
};
function verdict(report) {
  if (report.stalled) {
    const stall = report.findings.find((f) => findingRole(f.kind) === "stall");
    return stall ? `busy without progress: no milestone in steps ${stall.from_step}\u2013${stall.to_step}` : "busy without progress";
  }
  const evidence = report.findings.filter((f) => findingRole(f.kind) === "evidence").length;
  if (evidence > 0)
    return `not stalled (no long stretch without a milestone); ${evidence === 1 ? "a loop" : `${evidence} loops`} below, shown as evidence`;
  return report.findings.length > 0 ? "not stalled; over a budget" : "no stall found";
}
var ROLE_WORDS = { stall: "the stall", evidence: "evidence", budget: "budget" };
function renderProgressMarkdown(report, source) {
  const c = report.counters;
  const out = [
    `### Agent trace ${codeSpan(source, 200)}: ${verdict(report)}`,
    "",
    `${report.format}, ${report.steps} tool calls${report.exit_status ? `, ended ${codeSpan(report.exit_status, 60)}` : ""}. New information in ${c.new_information} calls, none in ${c.no_new_information}; ${c.milestones} milestones, ${c.steps_since_last_milestone} calls since the last; ${c.reverts} restores of earlier work. The verdict rests on calls without a milestone alone; loops are evidence. A stall is reported to the evaluator; it never decides the gate by itself.`,
    ""
  ];
  if (report.findings.length > 0) {
    out.push("| steps | what | counts as | why | what repeated |", "|---|---|---|---|---|");
    for (const f of report.findings) {
      out.push(
        `| ${f.from_step}\u2013${f.to_step} (${tableCell(codeSpan(f.at, 40))}) | ${KIND_WORDS[f.kind]} | ${ROLE_WORDS[findingRole(f.kind)]} | ${tableCell(codeSpan(f.why, 300))} | ${f.excerpt ? tableCell(codeSpan(f.excerpt, 160)) : ""} |`
      );
    }
    if (report.findings_not_listed > 0) out.push("", `\u2026 and ${report.findings_not_listed} more.`);
    out.push("");
  }
  if (report.infrastructure_failure_count > 0) {
    out.push(
      `Infrastructure failures (not counted as stalls): ${report.infrastructure_failure_count}, first ${codeSpan(report.infrastructure_failures[0]?.message ?? "", 200)}.`,
      ""
    );
  }
  const budgets = BUDGET_LABELS.filter(([key]) => report.budgets[key] !== null).map(([key, label]) => `${label} ${report.budgets[key]}`).join(" \xB7 ");
  out.push(`Budgets: ${budgets}.`, "");
  return out.join("\n");
}

// action/trace.ts
var import_picomatch = __toESM(require_picomatch2(), 1);
import { readdirSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";

// action/trace/read.ts
import { createReadStream, lstatSync, readFileSync } from "node:fs";
import { basename } from "node:path";

// checks/progress/bounded-set.ts
var BoundedSet = class {
  constructor(limit) {
    this.limit = limit;
  }
  limit;
  entries = /* @__PURE__ */ new Map();
  has(key) {
    return this.entries.has(key);
  }
  /** Adds the key; returns whether it was new. */
  add(key) {
    if (this.entries.has(key)) return false;
    this.entries.set(key, true);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== void 0) this.entries.delete(oldest);
    }
    return true;
  }
  get size() {
    return this.entries.size;
  }
};

// checks/progress/hash.ts
import { createHash } from "node:crypto";
function shortHash(text) {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
function canonicalJson(value) {
  return JSON.stringify(sortKeys(value)) ?? "null";
}
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = sortKeys(value[key]);
    }
    return out;
  }
  return value;
}

// checks/progress/timeline.ts
var TIMELINE_LIMIT = 1e6;
var PREVIEW_CHARS = 80;
var IDLE_TAIL_MIN_STEPS = 10;
var own = (text) => text.length === 0 ? "" : `${text}\0`.slice(0, -1).split("").join("");
var Timeline = class {
  index = [];
  at = [];
  /** Program names, interned: a few distinct ones repeat over the whole trace. */
  names = /* @__PURE__ */ new Map();
  nameList = [];
  name = [];
  preview = [];
  flags = [];
  event = [];
  events = [];
  truncated = false;
  get length() {
    return this.index.length;
  }
  add(step) {
    if (this.index.length >= TIMELINE_LIMIT) {
      this.truncated = true;
      return;
    }
    this.index.push(step.index);
    this.at.push(step.at);
    const name = step.name.slice(0, 40);
    let id = this.names.get(name);
    if (id === void 0) {
      id = this.nameList.length;
      const owned = own(name);
      this.nameList.push(owned);
      this.names.set(owned, id);
    }
    this.name.push(id);
    this.preview.push(own(step.preview.slice(0, PREVIEW_CHARS)));
    this.flags.push(
      (step.passed ? 1 : 0) | (step.newFailure ? 2 : 0) | (step.newInformation ? 4 : 0) | (step.write ? 8 : 0)
    );
    this.event.push(step.event);
  }
  /** Opens or extends a restore event at this step; returns its id. */
  restore(step, extend) {
    const last = this.events.at(-1);
    if (extend && last) {
      last.last = step;
      return last.id;
    }
    const id = this.events.length;
    this.events.push({ id, first: step, last: step, cancelled: false });
    return id;
  }
  cancel(ids) {
    for (const id of ids) {
      const event = this.events[id];
      if (event) event.cancelled = true;
    }
  }
  /**
   * Milestones, known only at the end: a command that newly passed, a new failure mode, an
   * edit that survived to the end (`survivors`, step indexes).
   */
  milestones(survivors) {
    return this.index.map((index, i) => ((this.flags[i] ?? 0) & 3) !== 0 || survivors.has(index));
  }
  /** Longest stretch without a milestone, and the stretch still open at the end. */
  stretches(milestones) {
    let run = 0;
    let longest = 0;
    for (const milestone of milestones) {
      run = milestone ? 0 : run + 1;
      longest = Math.max(longest, run);
    }
    return { longest, open: run };
  }
  /** What repeated in steps [from, to): the programs used most, and the first call's preview. */
  excerpt(from, to) {
    const counts = /* @__PURE__ */ new Map();
    for (let i = from; i < to; i++) {
      const name = this.nameList[this.name[i] ?? -1] ?? "?";
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name, n]) => `${name} \xD7${n}`).join(", ");
    return `${top}; first: ${this.preview[from] ?? ""}`;
  }
  /**
   * Stretches of at least `steps_without_milestone` calls after the last milestone (or the
   * start) that reached none (seed 001: a run that reaches a milestone and then idles).
   */
  noMilestone(milestones, t) {
    const found = [];
    let start = 0;
    const total = milestones.length;
    const close = (end) => {
      const length = end - start;
      const idleTail = end === total && t.idle_tail_share > 0 && length >= IDLE_TAIL_MIN_STEPS && length / Math.max(1, total) >= t.idle_tail_share;
      if (length < t.steps_without_milestone && !idleTail) return;
      let stale = 0;
      for (let i = start; i < end; i++) if (((this.flags[i] ?? 0) & 4) === 0) stale++;
      if (stale / length < t.no_milestone_stale_share) return;
      const undone = this.events.filter(
        (e) => !e.cancelled && e.first >= (this.index[start] ?? 0)
      ).length;
      found.push({
        kind: "no-milestone",
        from_step: this.index[start] ?? 0,
        to_step: this.index[end - 1] ?? 0,
        at: this.at[start] ?? "",
        why: `${length} tool calls without a milestone (no command newly passing, no new failure, no edit that survived to the end)${start > 0 ? " after the last one" : ""}${idleTail ? start === 0 ? ": the whole run" : `: the last ${Math.round(100 * length / Math.max(1, total))}% of the run` : ""}; ${stale} brought nothing new${undone > 0 ? `, ${undone} restores of earlier work` : ""}${this.truncated ? ` (only the first ${TIMELINE_LIMIT} calls were kept)` : ""}`,
        excerpt: this.excerpt(start, end).slice(0, 400)
      });
    };
    milestones.forEach((milestone, i) => {
      if (!milestone) return;
      close(i);
      start = i + 1;
    });
    close(milestones.length);
    return found;
  }
  /**
   * Restore events (not baseline checks) since the last command that newly passed; from the
   * threshold on, one finding that grows with each further restore.
   */
  revertCycles(t) {
    const found = [];
    const byStep = new Map(this.index.map((index, i) => [index, i]));
    let count = 0;
    let from = null;
    let eventIndex = 0;
    const live = this.events.filter((e) => !e.cancelled);
    let current = null;
    for (let i = 0; i < this.index.length; i++) {
      const flags = this.flags[i] ?? 0;
      if (flags & 1) {
        count = 0;
        from = null;
        current = null;
      }
      if (flags & 8) from ??= i;
      const event = live[eventIndex];
      if (!event || event.last !== this.index[i]) continue;
      eventIndex++;
      count++;
      if (count < t.reverts) continue;
      const start = from ?? byStep.get(event.first) ?? i;
      if (current) {
        current.to_step = this.index[i] ?? 0;
        current.why = `the agent restored earlier work ${count} times (git checkout/restore/stash, a copy back, an undo) and no command newly passed`;
        continue;
      }
      current = {
        kind: "revert-cycle",
        from_step: this.index[start] ?? 0,
        to_step: this.index[i] ?? 0,
        at: this.at[start] ?? "",
        why: `the agent restored earlier work ${count} times (git checkout/restore/stash, a copy back, an undo) and no command newly passed`,
        excerpt: this.restoreExcerpt(live, eventIndex - count, eventIndex, byStep).slice(0, 400)
      };
      found.push(current);
    }
    return found;
  }
  restoreExcerpt(live, from, to, byStep) {
    return live.slice(Math.max(0, from), to).map((e) => `step ${e.first}: ${this.preview[byStep.get(e.first) ?? -1] ?? ""}`).slice(0, 3).join(" | ");
  }
};

// checks/progress/workspace.ts
var BASE = "base";
var ABSENT = "absent";
var HISTORY_LIMIT = 2e3;
var WATCHED_LIMIT = 2e3;
var isScratch = (path) => {
  const relative2 = path.replace(/^\.\//, "");
  return !relative2.includes("/") || /^\/tmp\/|^\/var\/tmp\//.test(relative2) || /^\/[^/]+$/.test(relative2);
};
var Workspace = class {
  histories = /* @__PURE__ */ new Map();
  lastEditArgs = /* @__PURE__ */ new Map();
  copies = /* @__PURE__ */ new Map();
  undone = /* @__PURE__ */ new Map();
  uses = /* @__PURE__ */ new Map();
  stash = null;
  stashEvent = -1;
  /** Steps whose every edit was later undone (and not put back). */
  undoneSteps = /* @__PURE__ */ new Set();
  history(path, created, base) {
    let history = this.histories.get(path);
    if (!history) {
      history = { base: base ?? (created ? ABSENT : BASE), entries: [] };
      this.histories.set(path, history);
      if (history.base === ABSENT && this.uses.size < WATCHED_LIMIT) {
        this.uses.set(path, { name: path.split("/").pop() ?? path, steps: [] });
      }
    }
    return history;
  }
  /** The stash made with this event id opened no restore event: its pop cancels nothing. */
  forgetStash(event) {
    if (this.stashEvent === event) this.stashEvent = -1;
  }
  /** Notes the calls that name a file the agent created (it ran or read it). */
  noteUse(step) {
    if (step.kind === "write") return;
    for (const use of this.uses.values()) {
      if (use.steps.length < 8 && step.args.includes(use.name)) use.steps.push(step.index);
    }
  }
  /** A file the agent created was used at least twice after this step. */
  usedAfter(path, step) {
    return (this.uses.get(path)?.steps.filter((s) => s > step).length ?? 0) >= 2;
  }
  token(path) {
    const history = this.histories.get(path);
    return history?.entries.at(-1)?.token ?? history?.base ?? BASE;
  }
  /** Moves `path` to `token`: back to an earlier state undoes the edits after it. */
  move(path, token, step, event, created = false, base) {
    const history = this.history(path, created, base);
    const result = { undid: false, changed: false, redid: [] };
    if (this.token(path) === token) return result;
    result.changed = true;
    const previous = token === history.base ? 0 : history.entries.findIndex((e) => e.token === token) + 1;
    if (previous > 0 || token === history.base) {
      const removed = history.entries.splice(previous);
      for (const entry of removed) this.undoneSteps.add(entry.step);
      if (removed.length > 0) {
        result.undid = true;
        this.undone.set(path, { event, entries: removed });
      }
      return result;
    }
    const lost = this.undone.get(path);
    if (lost && lost.entries.at(-1)?.token === token) {
      history.entries.push(...lost.entries);
      for (const entry of lost.entries) this.undoneSteps.delete(entry.step);
      this.undone.delete(path);
      result.redid.push(lost.event);
      return result;
    }
    history.entries.push({ step, token });
    if (history.entries.length > HISTORY_LIMIT) history.entries.shift();
    return result;
  }
  /** Applies one step; `event` names the restore event the step would be part of. */
  apply(step, event) {
    const result = { undid: false, changed: false, redid: [] };
    const merge = (part) => {
      result.undid ||= part.undid;
      result.changed ||= part.changed;
      result.redid.push(...part.redid);
    };
    for (const copy of step.copies) {
      this.copies.set(copy.to, { path: copy.from, token: this.token(copy.from) });
    }
    if (step.unstash && this.stash) {
      for (const [path, token] of this.stash) merge(this.move(path, token, step.index, event));
      if (this.stashEvent >= 0) result.redid.push(this.stashEvent);
      this.stash = null;
    }
    if (step.revert) {
      const all = step.revert.includes("*");
      if (all && /\bstash\b/.test(step.preview)) {
        this.stash = new Map([...this.histories.keys()].map((p) => [p, this.token(p)]));
        this.stashEvent = event;
      }
      const paths = all ? [...this.histories.keys()] : step.revert;
      for (const path of paths) {
        const base = this.histories.get(path)?.base ?? BASE;
        merge(this.move(path, base, step.index, event));
      }
    }
    for (const restore of step.restores) {
      const copy = restore.from ? this.copies.get(restore.from) : void 0;
      const history = this.history(restore.to, false);
      const back = copy && copy.path === restore.to ? copy.token : restore.from === null ? history.entries.at(-2)?.token ?? history.base : history.base;
      merge(this.move(restore.to, back, step.index, event));
    }
    if (step.kind === "write" && !step.revert && step.restores.length === 0 && !step.unstash) {
      for (const path of step.writes.length > 0 ? step.writes : [step.path ?? "?"]) {
        merge(this.write(step, path, event));
      }
    }
    return result;
  }
  write(step, path, event) {
    const deleted = step.name === "rm";
    if (step.write?.after) {
      const before = step.write.before ?? ABSENT;
      return this.move(path, step.write.after, step.index, event, false, before);
    }
    if (deleted) return this.move(path, ABSENT, step.index, event);
    if (this.lastEditArgs.get(path) === step.args_hash) {
      return { undid: false, changed: false, redid: [] };
    }
    this.lastEditArgs.set(path, step.args_hash);
    const created = !this.histories.has(path) && /(^|[^<])>\s*\S|\btouch\b/.test(step.preview);
    const token = shortHash(`${this.token(path)}\0${step.args_hash}\0${step.index}`);
    return this.move(path, token, step.index, event, created);
  }
  /**
   * The edits standing at the end, by step: a file changed from its base whose history still
   * holds the step. A scratch file the agent created (top of the tree, a temp dir) counts only
   * when it was used at least twice after: a scratch script nobody runs again is no progress.
   */
  survivors() {
    const steps = /* @__PURE__ */ new Set();
    for (const [path, history] of this.histories) {
      const last = history.entries.at(-1);
      if (!last || last.token === history.base) continue;
      for (const entry of history.entries) {
        if (history.base === ABSENT && isScratch(path) && !this.usedAfter(path, entry.step))
          continue;
        steps.add(entry.step);
      }
    }
    return steps;
  }
};

// checks/progress/detector.ts
var DEFAULT_PROGRESS_THRESHOLDS = progressThresholdsSchema.parse({});
var SEEN_LIMIT = 2e5;
var REPORT_LIST_LIMIT = 100;
var Segments = class {
  open = /* @__PURE__ */ new Map();
  closed = [];
  dropped = 0;
  hit(tracker, finding) {
    const current = this.open.get(tracker);
    if (current && finding.from_step <= current.to_step + 1) {
      current.to_step = finding.to_step;
      current.why = finding.why;
      return;
    }
    if (current) this.close(current);
    this.open.set(tracker, { ...finding });
  }
  miss(tracker) {
    const current = this.open.get(tracker);
    if (current) this.close(current);
    this.open.delete(tracker);
  }
  /** Keeps the first REPORT_LIST_LIMIT findings; later ones are counted in `dropped`. */
  close(finding) {
    if (this.closed.length < REPORT_LIST_LIMIT) this.closed.push(finding);
    else this.dropped++;
  }
  all() {
    return [...this.closed, ...this.open.values()].sort((a, b) => a.from_step - b.from_step);
  }
};
var ProgressDetector = class {
  constructor(format, thresholds = {}) {
    this.format = format;
    this.t = progressThresholdsSchema.parse({ ...DEFAULT_PROGRESS_THRESHOLDS, ...thresholds });
  }
  format;
  t;
  segments = new Segments();
  workspace = new Workspace();
  seen = new BoundedSet(SEEN_LIMIT);
  modelCallIds = new BoundedSet(SEEN_LIMIT);
  lastExit = /* @__PURE__ */ new Map();
  records = 0;
  steps = 0;
  exitStatus = null;
  counters = {
    new_information: 0,
    no_new_information: 0,
    milestones: 0,
    steps_since_last_milestone: 0,
    longest_without_milestone: 0,
    longest_without_new_information: 0,
    reverts: 0
  };
  budgets = {
    model_calls: 0,
    tool_calls: 0,
    executed_tool_calls: 0,
    max_tool_calls_per_turn: 0,
    max_tool_calls_per_model_call: 0,
    turns: 0,
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    peak_context_tokens: 0,
    cost_usd: null
  };
  infrastructure = [];
  infrastructureCount = 0;
  totals = null;
  declared = {
    cost: null,
    calls: null,
    input: null,
    output: null
  };
  crossed = /* @__PURE__ */ new Set();
  // Run state of the trackers.
  noInfoRun = 0;
  noInfoStart = null;
  lastPair = null;
  streak = 0;
  streakStart = null;
  lastAction = null;
  reworded = 0;
  rewordedStart = null;
  window = [];
  timeline = new Timeline();
  failures = /* @__PURE__ */ new Map();
  /** A write or a run since the last restore: a restore after it undoes work. */
  workSinceRestore = false;
  lastWasRestore = false;
  turnCalls = 0;
  modelCall = { id: null, calls: 0 };
  /** Counts one record read from the trace (whether or not it produced events). */
  record() {
    this.records++;
  }
  push(event) {
    switch (event.type) {
      case "step":
        this.step({ ...event.step, index: ++this.steps });
        break;
      case "model-call":
        if (event.id !== null && !this.modelCallIds.add(event.id)) break;
        this.budgets.model_calls++;
        if (event.usage) {
          this.budgets.input_tokens += event.usage.input_tokens;
          this.budgets.cached_input_tokens += event.usage.cached_input_tokens;
          this.budgets.output_tokens += event.usage.output_tokens;
          this.budgets.peak_context_tokens = Math.max(
            this.budgets.peak_context_tokens,
            event.usage.input_tokens
          );
          if (event.usage.cost_usd !== null)
            this.budgets.cost_usd = (this.budgets.cost_usd ?? 0) + event.usage.cost_usd;
        }
        break;
      case "usage-total": {
        const key = shortHash(JSON.stringify(event.total));
        if (this.totals?.key === key) break;
        this.totals = {
          key,
          changes: (this.totals?.changes ?? 0) + 1,
          input: event.total.input_tokens,
          cached: event.total.cached_input_tokens,
          output: event.total.output_tokens
        };
        if (event.last) {
          this.budgets.peak_context_tokens = Math.max(
            this.budgets.peak_context_tokens,
            event.last.input_tokens
          );
        }
        break;
      }
      case "turn":
        this.budgets.turns++;
        this.turnCalls = 0;
        break;
      case "infrastructure":
        this.noteInfrastructure(event.kind, event.at, event.message);
        break;
      case "exit":
        this.exitStatus = event.status ?? this.exitStatus;
        this.declared = {
          cost: event.cost_usd,
          calls: event.model_calls,
          input: event.input_tokens ?? null,
          output: event.output_tokens ?? null
        };
        break;
    }
    this.checkBudgets();
  }
  step(step) {
    const b = this.budgets;
    b.tool_calls++;
    if (step.result.hash !== null) b.executed_tool_calls++;
    this.turnCalls++;
    b.max_tool_calls_per_turn = Math.max(b.max_tool_calls_per_turn, this.turnCalls);
    if (step.model_call === null || step.model_call !== this.modelCall.id) {
      this.modelCall = { id: step.model_call, calls: 0 };
    }
    this.modelCall.calls++;
    b.max_tool_calls_per_model_call = Math.max(
      b.max_tool_calls_per_model_call,
      this.modelCall.calls
    );
    if (step.result.hash === null) return;
    if (step.infrastructure) {
      this.noteInfrastructure(step.infrastructure, step.at, `${step.name}: ${step.preview}`);
      return;
    }
    const mark = { index: step.index, at: step.at };
    const newInformation = this.workTree(step);
    let passed = false;
    let newFailure = false;
    if (step.result.exit_code !== null) {
      const before = this.lastExit.get(step.args_hash);
      passed = step.result.exit_code === 0 && before !== void 0 && before !== 0;
      if (this.lastExit.size < SEEN_LIMIT || this.lastExit.has(step.args_hash))
        this.lastExit.set(step.args_hash, step.result.exit_code);
    }
    if (step.failure !== null) {
      const seen = this.failures.get(step.args_hash);
      newFailure = seen !== void 0 && !seen.split("\0").includes(step.failure);
      if (this.failures.size < SEEN_LIMIT || seen !== void 0)
        this.failures.set(step.args_hash, seen ? `${seen}\0${step.failure}` : step.failure);
    }
    this.timeline.add({
      index: step.index,
      at: step.at,
      name: step.name,
      preview: step.preview,
      passed,
      newFailure,
      newInformation,
      event: -1,
      write: step.kind === "write"
    });
    const c = this.counters;
    if (newInformation) {
      c.new_information++;
      this.noInfoRun = 0;
      this.noInfoStart = null;
    } else {
      c.no_new_information++;
      this.noInfoRun++;
      this.noInfoStart ??= mark;
      c.longest_without_new_information = Math.max(
        c.longest_without_new_information,
        this.noInfoRun
      );
    }
    this.workspace.noteUse(step);
    this.detect(step, mark);
  }
  /**
   * Applies the step to the work tree and tells whether it brought new information. A restore
   * right after another, with no work between, is the same clean-up (one event); a restore that
   * is later undone by putting the work back was a baseline check (its event is cancelled).
   */
  workTree(step) {
    const touches = step.kind === "write" || step.revert || step.restores.length > 0 || step.unstash;
    if (!touches) {
      const key = step.kind === "read" ? `read\0${step.result.hash}` : step.kind === "command" || step.kind === "search" ? `cmd\0${step.name}\0${step.result.hash}` : `other\0${step.args_hash}\0${step.result.hash}`;
      if (step.kind === "command") this.workSinceRestore = true;
      this.lastWasRestore = false;
      return this.seen.add(key);
    }
    const explicit = Boolean(step.revert) || step.restores.length > 0;
    const events = this.timeline.events;
    const event = this.lastWasRestore ? events.at(-1)?.id ?? events.length : events.length;
    const applied = this.workspace.apply(step, event);
    this.timeline.cancel(applied.redid);
    const undoing = applied.undid && (explicit || step.write?.after != null);
    const counts = undoing || explicit && this.workSinceRestore;
    if (counts || explicit && this.lastWasRestore) {
      this.timeline.restore(step.index, this.lastWasRestore);
      this.lastWasRestore = true;
    } else if (!explicit) {
      this.lastWasRestore = false;
    }
    if (!counts && !this.lastWasRestore) this.workspace.forgetStash(event);
    if (explicit) {
      this.workSinceRestore = false;
      return false;
    }
    this.workSinceRestore = true;
    return applied.changed && !undoing;
  }
  detect(step, mark) {
    const t = this.t;
    const s = this.segments;
    const finding = (kind, from, why) => ({
      kind,
      from_step: from.index,
      to_step: mark.index,
      at: from.at,
      why,
      excerpt: step.preview
    });
    const pair = `${step.args_hash}:${step.result.hash}`;
    if (pair === this.lastPair) this.streak++;
    else {
      this.streak = 1;
      this.streakStart = mark;
    }
    this.lastPair = pair;
    if (this.streak >= t.identical_streak && this.streakStart) {
      s.hit(
        "identical",
        finding(
          "identical-streak",
          this.streakStart,
          `the same call (${step.name}) returned the same result ${this.streak} times in a row`
        )
      );
    } else s.miss("identical");
    const action = `${step.action_hash}:${step.echo_free_hash}`;
    const quiet = step.kind !== "write" && !step.result.error;
    if (quiet && action === this.lastAction) this.reworded++;
    else {
      this.reworded = quiet ? 1 : 0;
      this.rewordedStart = mark;
    }
    this.lastAction = quiet ? action : null;
    if (this.reworded >= t.identical_streak + 2 && this.rewordedStart && this.streak < this.reworded) {
      s.hit(
        "reworded",
        finding(
          "identical-streak",
          this.rewordedStart,
          `the same action (${step.name}), reworded, ran ${this.reworded} times in a row and its output said nothing beyond the call's own words`
        )
      );
    } else s.miss("reworded");
    this.window.push({ ...mark, pair });
    if (this.window.length > 3 * t.cycle_repeats) this.window.shift();
    let cycled = false;
    for (const period of [2, 3]) {
      const length = period * t.cycle_repeats;
      if (this.window.length < length) continue;
      const tail = this.window.slice(-length);
      const distinct = new Set(tail.slice(0, period).map((m) => m.pair)).size;
      if (distinct < 2) continue;
      if (tail.every((m, i) => i < period || m.pair === tail[i - period]?.pair)) {
        const first = tail[0];
        s.hit(
          "cycle",
          finding(
            "short-cycle",
            first,
            `a cycle of ${period} different calls repeated ${t.cycle_repeats} times with the same results`
          )
        );
        cycled = true;
        break;
      }
    }
    if (!cycled) s.miss("cycle");
    if (this.noInfoRun >= t.no_new_information && this.noInfoStart) {
      s.hit(
        "no-info",
        finding(
          "no-new-information",
          this.noInfoStart,
          `${this.noInfoRun} tool calls in a row brought no new information (results, reads and file states seen before)`
        )
      );
    } else s.miss("no-info");
  }
  /** The first few are listed; the rest only counted, so the report stays small. */
  noteInfrastructure(kind, at, message) {
    this.infrastructureCount++;
    if (this.infrastructure.length < REPORT_LIST_LIMIT)
      this.infrastructure.push({ kind, at, message: message.slice(0, 300) });
  }
  checkBudgets() {
    const b = this.currentBudgets();
    const t = this.t;
    const limits = [
      ["model calls", b.model_calls, t.max_model_calls],
      ["tool calls", b.tool_calls, t.max_tool_calls],
      ["tool calls in one turn", b.max_tool_calls_per_turn, t.max_tool_calls_per_turn],
      ["billed input tokens", b.input_tokens, t.max_input_tokens],
      ["context tokens in one call", b.peak_context_tokens, t.max_context_tokens],
      ["cost in USD", b.cost_usd ?? 0, t.max_cost_usd]
    ];
    for (const [name, used, limit] of limits) {
      if (limit === null || used <= limit || this.crossed.has(name)) continue;
      this.crossed.add(name);
      this.segments.close({
        kind: "budget",
        from_step: this.steps,
        to_step: this.steps,
        at: `step ${this.steps}`,
        why: `${name}: ${Number(used.toFixed(4))} is over the limit of ${limit}`,
        excerpt: null
      });
    }
  }
  currentBudgets() {
    const b = { ...this.budgets };
    if (this.totals) {
      b.input_tokens = Math.max(b.input_tokens, this.totals.input);
      b.cached_input_tokens = Math.max(b.cached_input_tokens, this.totals.cached);
      b.output_tokens = Math.max(b.output_tokens, this.totals.output);
      b.model_calls = Math.max(b.model_calls, this.totals.changes);
    }
    if (this.declared.input !== null)
      b.input_tokens = Math.max(b.input_tokens, this.declared.input);
    if (this.declared.output !== null)
      b.output_tokens = Math.max(b.output_tokens, this.declared.output);
    if (this.declared.calls !== null) b.model_calls = Math.max(b.model_calls, this.declared.calls);
    if (this.declared.cost !== null && this.declared.cost >= (b.cost_usd ?? 0))
      b.cost_usd = this.declared.cost;
    if (b.cost_usd !== null) b.cost_usd = Math.round(b.cost_usd * 1e6) / 1e6;
    return b;
  }
  report() {
    const survivors = this.workspace.survivors();
    const milestones = this.timeline.milestones(survivors);
    const { longest, open } = this.timeline.stretches(milestones);
    this.counters.milestones = milestones.filter(Boolean).length;
    this.counters.longest_without_milestone = longest;
    this.counters.steps_since_last_milestone = open;
    this.counters.reverts = this.timeline.events.filter((e) => !e.cancelled).length;
    for (const found of [
      ...this.timeline.noMilestone(milestones, this.t),
      ...this.timeline.revertCycles(this.t)
    ])
      this.segments.close(found);
    const findings = this.segments.all();
    return {
      version: PROGRESS_REPORT_VERSION,
      format: this.format,
      records: this.records,
      steps: this.steps,
      exit_status: this.exitStatus,
      counters: { ...this.counters },
      budgets: this.currentBudgets(),
      infrastructure_failures: this.infrastructure,
      infrastructure_failure_count: this.infrastructureCount,
      findings,
      findings_not_listed: this.segments.dropped,
      // The verdict rests on the milestone criterion only; loops are evidence (verdict.ts).
      stalled: isStalled(findings),
      thresholds: this.t
    };
  }
};

// checks/progress/shell.ts
var READERS = /* @__PURE__ */ new Set(["cat", "nl", "head", "tail", "less", "more", "view", "bat", "wc"]);
var SEARCHERS = /* @__PURE__ */ new Set(["grep", "egrep", "rg", "ag", "find", "ls", "tree", "fd", "locate"]);
var WRAPPERS = /* @__PURE__ */ new Set(["sudo", "env", "time", "nice", "command", "exec", "nohup"]);
var BACKUP_SUFFIX = /(?:\.(?:orig|original|bak|backup|old|save|saved|prev)|~)$/;
var withoutHeredocs = (command) => command.replace(
  /<<-?\s*(['"]?)(\w+)\1[^\n]*\n[\s\S]*?\n\s*\2\s*(?=\n|$)/g,
  (m) => m.slice(0, m.indexOf("\n"))
);
function shellSegments(command) {
  const body = withoutHeredocs(command);
  const segments = [];
  let current = "";
  let quote = null;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') {
        current += c + (body[i + 1] ?? "");
        i++;
        continue;
      }
      current += c;
      continue;
    }
    if (c === "\\" && body[i + 1] === "\n") {
      current += " ";
      i++;
      continue;
    }
    if (c === "\\" && i + 1 < body.length) {
      current += c + body[i + 1];
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    if (c === "#" && (current === "" || /\s$/.test(current))) {
      const end = body.indexOf("\n", i);
      i = end < 0 ? body.length : end - 1;
      continue;
    }
    const two = body.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      segments.push(current);
      current = "";
      i++;
      continue;
    }
    if (c === ";" || c === "\n" || c === "|" && body[i + 1] !== "&") {
      segments.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  segments.push(current);
  return segments.map((s) => s.trim()).filter((s) => s.length > 0);
}
function shellWords(segment) {
  const words = [];
  const outputs = [];
  let pending = null;
  for (const match of segment.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"|((?:\\.|[^\s'"])+)/g)) {
    const bare = match[3];
    const word = match[1] ?? match[2] ?? bare ?? "";
    if (pending) {
      if (pending === "out" && word !== "/dev/null") outputs.push(word);
      pending = null;
      continue;
    }
    const redirect = bare === void 0 ? null : /^(\d*|&)?(>>?|<)(&?)(.*)$/.exec(bare);
    if (redirect) {
      const [, , op, toFd, rest] = redirect;
      if (toFd || /^<<|^<</.test(bare ?? "")) continue;
      if (rest) {
        if (op !== "<" && rest !== "/dev/null") outputs.push(rest);
      } else pending = op === "<" ? "in" : "out";
      continue;
    }
    words.push(bare !== void 0 ? bare.replace(/\\(.)/g, "$1") : word);
  }
  return { words, outputs };
}
function programOf(words) {
  let i = 0;
  while (i < words.length) {
    const word = words[i];
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || WRAPPERS.has(word)) i++;
    else if (word === "timeout") i += 2;
    else break;
  }
  const program = words[i] ?? "";
  return { name: program.split("/").pop() ?? program, args: words.slice(i + 1) };
}
var operands = (args) => args.filter((a) => !a.startsWith("-"));
var lastOperand = (args) => [...args].reverse().find((a) => !a.startsWith("-") && !/^\d+(,\d+)?p?$/.test(a)) ?? null;
function sedFiles(args) {
  const files = [];
  let script = args.some((a) => a === "-e" || a === "-f" || a.startsWith("--expression"));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-e" || arg === "-f") {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    if (!script) script = true;
    else files.push(arg);
  }
  return files;
}
var looksLikeRef = (word) => /^(HEAD|FETCH_HEAD|ORIG_HEAD|@)([~^]\d*)*$|^[0-9a-f]{7,40}$|^(origin|upstream)\/|^(main|master|develop)$/.test(
  word
);
function revertOf(name, args) {
  if (name !== "git") return null;
  const [sub, ...rest] = args;
  const plain = operands(rest);
  if (sub === "checkout" && !rest.some((a) => a === "-b" || a === "-B")) {
    const paths = rest.includes("--") ? rest.slice(rest.indexOf("--") + 1) : plain;
    const files = !rest.includes("--") && paths.length > 1 && looksLikeRef(paths[0]) ? paths.slice(1) : paths;
    if (files.length === 0) return null;
    return files.includes(".") ? ["*"] : files;
  }
  if (sub === "restore") {
    if (rest.includes("--staged") && !rest.includes("--worktree")) return null;
    const files = plain.filter((a) => a !== "--");
    return files.length === 0 || files.includes(".") ? ["*"] : files;
  }
  if (sub === "stash" && (rest.length === 0 || ["push", "save", "-u", "--include-untracked"].includes(rest[0])))
    return ["*"];
  if (sub === "reset" && rest.includes("--hard")) return ["*"];
  return null;
}
var baseName = (path) => path.split("/").pop() ?? path;
function looksLikeBackupOf(from, to) {
  const source = baseName(from);
  const target = baseName(to);
  if (source === target) return from !== to && /backup|orig|bak|saved?|pristine/i.test(from);
  return BACKUP_SUFFIX.test(source) && source.replace(BACKUP_SUFFIX, "") === target;
}
function shellFacts(command) {
  const segments = shellSegments(command);
  const facts = {
    name: "",
    kind: "command",
    path: null,
    writes: [],
    revert: null,
    restores: [],
    copies: [],
    unstash: false
  };
  let first = null;
  const write = (paths) => {
    facts.kind = "write";
    for (const path of paths) if (!facts.writes.includes(path)) facts.writes.push(path);
    facts.path ??= paths[0] ?? null;
  };
  for (const segment of segments) {
    const { words, outputs } = shellWords(segment);
    const { name, args } = programOf(words);
    if (name === "cd" || name === "") continue;
    first ??= name;
    const reverted = revertOf(name, args);
    if (reverted) {
      facts.revert = [...facts.revert ?? [], ...reverted];
      facts.kind = "write";
      continue;
    }
    if (name === "git" && args[0] === "stash" && (args[1] === "pop" || args[1] === "apply")) {
      facts.unstash = true;
      facts.kind = "write";
      continue;
    }
    if ((name === "cp" || name === "mv") && operands(args).length === 2) {
      const [from, to] = operands(args);
      if (looksLikeBackupOf(from, to)) facts.restores.push({ from, to });
      else if (name === "cp") facts.copies.push({ from, to });
      write([to]);
      continue;
    }
    const inPlace = name === "sed" && args.some((a) => /^-i/.test(a) || a === "--in-place");
    if (outputs.length > 0 || inPlace || name === "tee" || name === "patch" || name === "touch") {
      const files = [
        ...outputs,
        ...inPlace ? sedFiles(args) : [],
        ...name === "tee" || name === "touch" ? operands(args) : []
      ];
      write(files.length > 0 ? files : [lastOperand(args) ?? "?"]);
      continue;
    }
    if (name === "rm" || name === "mv" || name === "cp" || name === "git" && args[0] === "apply") {
      write(operands(name === "git" ? args.slice(1) : args));
      continue;
    }
    if (facts.kind !== "write" && first === name) {
      const printsOnly = name === "sed" ? args.includes("-n") : READERS.has(name);
      if (printsOnly) {
        facts.kind = "read";
        facts.path = (name === "sed" ? sedFiles(args).at(-1) : lastOperand(args)) ?? null;
      } else if (SEARCHERS.has(name) || name === "git" && args[0] === "grep")
        facts.kind = "search";
    }
  }
  facts.name = first ?? "";
  return facts;
}

// checks/progress/volatile.ts
var VOLATILE_RESULT_KEYS = /* @__PURE__ */ new Set([
  "duration_seconds",
  "duration_ms",
  "durationMs",
  "totalDurationMs",
  "elapsed",
  "elapsed_ms",
  "elapsed_seconds",
  "execution_time",
  "wall_time",
  "wall_time_seconds",
  "timestamp",
  "created_at",
  "execution_count",
  "pid"
]);
var VOLATILE_TEXT_RULES = [
  // "execution_count": 17, execution_count=17, "duration_seconds": 0.42
  [
    /("?)(execution_count|duration_seconds|duration_ms|durationMs|elapsed(?:_ms|_seconds)?|wall_time(?:_seconds)?)\1(\s*[:=]\s*)-?\d+(?:\.\d+)?(?:e-?\d+)?/g,
    "$1$2$1$3<n>"
  ],
  // Jupyter prompts: In [17]:, Out[17]:
  [/\b(In|Out)\s?\[\d+\]/g, "$1[<n>]"],
  // Codex's plain shell result header: "Wall time: 0.0123 seconds" (the unit may be missing),
  // and exec_command's chunk id and token count.
  [/^(Wall time:)\s*[^\n]*$/gm, "$1 <duration>"],
  [/^(Chunk ID:|Original token count:)\s*[^\n]*$/gm, "$1 <volatile>"],
  // Epoch times in seconds (2017-2033) or milliseconds, with or without a fraction.
  [/\b1[5-9]\d{8}(?:\d{3})?(?:\.\d+)?\b/g, "<epoch>"],
  // Hex ids of 12 or more digits (request ids, object hashes, git object names).
  [/\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{12,}\b/g, "<hex>"],
  // Ports on a local address: localhost:54321, 127.0.0.1:8000, [::1]:3000, "port 43117".
  [/\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):\d{2,5}\b/g, "$1:<port>"],
  [/\b(port)(\s*[:=]?\s*)\d{2,5}\b/gi, "$1$2<port>"],
  // Python's and mktemp's temp names outside /tmp: tmpab12_cd, tmp.X7aB3c.
  [/\btmp[._]?[A-Za-z0-9_]{6,}\b/g, "<tmpname>"]
];
var RANDOM_TOKEN = /\b[A-Za-z0-9_-]{10,}\b/g;
function looksRandom(token) {
  let digits = 0;
  let letters = 0;
  let flips = 0;
  let previous = 0;
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    const cls = code >= 48 && code <= 57 ? 1 : code >= 97 && code <= 122 ? 2 : code >= 65 && code <= 90 ? 3 : 0;
    if (cls === 1) digits++;
    else if (cls !== 0) letters++;
    if (cls !== 0 && previous !== 0 && cls !== previous) flips++;
    if (cls !== 0) previous = cls;
  }
  return digits >= 2 && letters >= 2 && flips >= 4;
}
var maskRandomTokens = (text) => text.replace(RANDOM_TOKEN, (token) => looksRandom(token) ? "<id>" : token);
function stripVolatile(value) {
  if (Array.isArray(value)) return value.map(stripVolatile);
  if (value !== null && typeof value === "object") {
    const out = {};
    for (const [key, inner] of Object.entries(value)) {
      if (!VOLATILE_RESULT_KEYS.has(key)) out[key] = stripVolatile(inner);
    }
    return out;
  }
  return value;
}
function normaliseResult(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return normaliseText(canonicalJson(stripVolatile(JSON.parse(trimmed))));
    } catch {
    }
  }
  return normaliseText(text);
}
function normaliseText(text) {
  let out = normaliseOutput(text);
  for (const [pattern, replacement] of VOLATILE_TEXT_RULES) out = out.replace(pattern, replacement);
  return maskRandomTokens(out);
}
function maskAction(text) {
  return normaliseText(text).replace(/\\?"(?:\\.|[^"\\])*\\?"|'[^']*'/g, "<s>").replace(/\b\d+(?:\.\d+)?\b/g, "<n>");
}
function echoFreeResult(call, normalisedResult) {
  const said = new Set(call.match(/[A-Za-z_]{2,}/g) ?? []);
  return normalisedResult.replace(/[A-Za-z_]{2,}/g, (word) => said.has(word) ? "" : word).replace(/\s+/g, "");
}
var normalisedResultHash = (exitCode, normalised) => shortHash(`${exitCode ?? "-"}\0${normalised}`);

// checks/progress/events.ts
var TraceParseError = class extends Error {
  constructor(at, reason) {
    super(`${at}: ${reason}`);
    this.at = at;
    this.reason = reason;
  }
  at;
  reason;
  name = "TraceParseError";
};
function infrastructureOf(text) {
  if (text.length > 2e3) return null;
  if (/rate.?limit|\b429\b|too many requests|overloaded/i.test(text)) return "rate-limit";
  if (/\b50[0-4]\b|internal ?server ?error|bad gateway|service unavailable/i.test(text))
    return "server-error";
  if (/timed? ?out|timeout|deadline exceeded/i.test(text)) return "timeout";
  if (/ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|connection (reset|refused)|SSL/i.test(text))
    return "network";
  return null;
}
function stepInfrastructureOf(text) {
  const head = text.trim();
  if (head.length > 300) return null;
  if (/^(error:?\s*)?(HTTP\S*\s*)?429\b|^(error:?\s*)?(rate limit|too many requests)/i.test(head))
    return "rate-limit";
  if (/^(error:?\s*)?(HTTP\S*\s*)?5\d\d\b|^(error:?\s*)?(service unavailable|bad gateway|gateway timeout|internal server error)/i.test(
    head
  ))
    return "server-error";
  return null;
}
var preview = (text) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}\u2026` : flat;
};
var FAILED_EDIT = /^\s*(ERROR:|<tool_use_error>|Error:)|No replacement was performed|did not appear verbatim|is not a valid|Invalid `path` parameter|No changes made|Old string and new string are identical/;
function failureOf(text, exit) {
  const names = text.slice(-2e4).match(/\b[A-Z][A-Za-z]*(?:Error|Exception|Failure|Exit|Interrupt)\b/g);
  return names?.at(-1) ?? `exit ${exit ?? "?"}`;
}
function buildStep(call, result, edit = {}) {
  const shell = call.command ? shellFacts(call.command) : null;
  const argsText = canonicalJson(call.args);
  const declared = call.kind ?? shell?.kind ?? "other";
  const failedEdit = result !== null && declared === "write" && !shell && FAILED_EDIT.test(result.text.slice(0, 2e3));
  const failed = result !== null && (result.error || failedEdit || (result.exit_code ?? 0) !== 0);
  const kind = failed && declared === "write" ? "command" : declared;
  const path = call.path ?? shell?.path ?? null;
  const actionText = call.command ?? argsText;
  const undo = edit.undo === true && !failed && path !== null;
  const normalised = result ? normaliseResult(result.text) : null;
  return {
    at: call.at,
    tool: call.tool,
    kind: undo ? "write" : kind,
    name: shell?.name || call.tool,
    args: argsText,
    args_hash: shortHash(`${call.tool}\0${argsText}`),
    preview: preview(call.command ?? str(asRecord(call.args)?.command) ?? call.path ?? argsText),
    path,
    result: {
      hash: result && normalised !== null ? normalisedResultHash(result.exit_code, normalised) : null,
      exit_code: result?.exit_code ?? null,
      error: failed,
      bytes: result ? Buffer.byteLength(result.text) : 0
    },
    write: failed ? null : result?.write ?? null,
    revert: failed ? null : shell?.revert ?? null,
    writes: failed ? [] : kind === "write" ? shell?.writes ?? (path ? [path] : []) : [],
    restores: failed ? [] : undo ? [{ from: null, to: path }] : shell?.restores ?? [],
    copies: failed ? [] : shell?.copies ?? [],
    unstash: !failed && (shell?.unstash ?? false),
    action_hash: shortHash(`${call.tool}\0${maskAction(actionText)}`),
    echo_free_hash: result && normalised !== null ? shortHash(`${result.exit_code ?? "-"}\0${echoFreeResult(actionText, normalised)}`) : null,
    failure: failed && result && normalised !== null ? failureOf(normalised, result.exit_code) : null,
    infrastructure: result?.infrastructure ?? (result && failed ? stepInfrastructureOf(result.text) : null),
    model_call: call.model_call,
    turn: call.turn,
    time: call.time
  };
}
var contentHash = (text) => shortHash(normaliseResult(text));
var asRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
var num = (value) => typeof value === "number" && Number.isFinite(value) ? value : null;
var str = (value) => typeof value === "string" ? value : null;
function openAiUsage(raw, cost = null) {
  const usage = asRecord(raw);
  if (!usage) return null;
  const details = asRecord(usage.prompt_tokens_details);
  return {
    input_tokens: num(usage.prompt_tokens) ?? num(usage.input_tokens) ?? 0,
    cached_input_tokens: num(details?.cached_tokens) ?? num(usage.cache_read_input_tokens) ?? num(usage.prompt_cache_hit_tokens) ?? 0,
    cache_creation_input_tokens: num(usage.cache_creation_input_tokens) ?? 0,
    output_tokens: num(usage.completion_tokens) ?? num(usage.output_tokens) ?? 0,
    cost_usd: num(usage.cost) ?? cost
  };
}

// checks/progress/parsers/shared.ts
function openCalls() {
  const open = /* @__PURE__ */ new Map();
  return {
    add(id, call) {
      open.set(id, call);
    },
    take(id) {
      if (id === null) return void 0;
      const call = open.get(id);
      open.delete(id);
      return call;
    },
    /** Every call left open, in the order it was made, as a step without a result. */
    end() {
      const left = [...open.values()];
      open.clear();
      return left.map(unanswered);
    }
  };
}
function unanswered(call) {
  return { type: "step", step: buildStep(call, null) };
}
function infrastructureEvent(text, at, fallback = null) {
  const kind = infrastructureOf(text) ?? fallback;
  return kind ? [{ type: "infrastructure", kind, at, message: text.slice(0, 300) }] : [];
}
function objectAt(record, at, what) {
  const object = asRecord(record);
  if (!object) throw new TraceParseError(at, `expected ${what} object`);
  return object;
}
function jsonOrText(value) {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
function runInfo(record) {
  if (!("__info" in record)) return null;
  const info = asRecord(record.__info);
  const stats = asRecord(info?.model_stats);
  const exit = {
    type: "exit",
    status: str(info?.exit_status),
    cost_usd: num(stats?.instance_cost),
    model_calls: num(stats?.api_calls)
  };
  return { exit, stats };
}

// checks/progress/parsers/claude-code.ts
var TOOL_KINDS = {
  Read: "read",
  NotebookRead: "read",
  Write: "write",
  Edit: "write",
  MultiEdit: "write",
  NotebookEdit: "write",
  Grep: "search",
  Glob: "search",
  LS: "search"
};
var COSMETIC_INPUT = /* @__PURE__ */ new Set(["description"]);
function usageOf(raw) {
  const usage = asRecord(raw);
  if (!usage) return null;
  const cacheRead = num(usage.cache_read_input_tokens) ?? 0;
  const cacheWrite = num(usage.cache_creation_input_tokens) ?? 0;
  return {
    input_tokens: (num(usage.input_tokens) ?? 0) + cacheRead + cacheWrite,
    cached_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
    output_tokens: num(usage.output_tokens) ?? 0,
    cost_usd: null
  };
}
function withinCwd(path, cwd) {
  if (path === null || !cwd) return path;
  const root = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}
function resultText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map(
      (block) => str(asRecord(block)?.text) ?? (asRecord(block)?.type === "image" ? "[image]" : "")
    ).join("\n");
  }
  return "";
}
function writeOf(tool, raw) {
  const result = asRecord(raw);
  if (!result) return null;
  const original = str(result.originalFile);
  if (tool === "Write") {
    const content = str(result.content);
    if (content === null) return null;
    return {
      before: original === null ? null : contentHash(original),
      after: contentHash(content)
    };
  }
  if (tool === "Edit" && original !== null) {
    const oldString = str(result.oldString) ?? "";
    const newString = str(result.newString) ?? "";
    const after = result.replaceAll === true ? original.split(oldString).join(newString) : original.replace(oldString, () => newString);
    return { before: contentHash(original), after: contentHash(after) };
  }
  return null;
}
function createClaudeCodeParser() {
  let turn = 0;
  let anonymous = 0;
  const pending = openCalls();
  function assistant(line, message, at) {
    const id = str(message.id) ?? `line-${at}-${anonymous++}`;
    const content = Array.isArray(message.content) ? message.content : [];
    if (line.isApiErrorMessage === true) {
      return infrastructureEvent(resultText(content), at, "server-error");
    }
    const events = [{ type: "model-call", id, usage: usageOf(message.usage) }];
    for (const raw of content) {
      const block = asRecord(raw);
      if (block?.type !== "tool_use") continue;
      const toolId = str(block.id);
      const name = str(block.name);
      if (!toolId || !name) throw new TraceParseError(at, "a tool_use block has no id or name");
      const input = asRecord(block.input) ?? {};
      const args = Object.fromEntries(
        Object.entries(input).filter(([k]) => !COSMETIC_INPUT.has(k))
      );
      pending.add(toolId, {
        name,
        at,
        tool: name,
        args,
        command: name === "Bash" ? str(input.command) ?? "" : null,
        kind: TOOL_KINDS[name] ?? (name === "Bash" ? void 0 : "other"),
        path: withinCwd(
          str(input.file_path) ?? str(input.notebook_path) ?? str(input.path),
          str(line.cwd)
        ),
        model_call: id,
        turn: Math.max(turn, 1),
        time: str(line.timestamp)
      });
    }
    return events;
  }
  function user(line, message) {
    const content = message.content;
    const blocks = Array.isArray(content) ? content.map(asRecord) : [];
    const results = blocks.filter((b) => b?.type === "tool_result");
    if (results.length === 0) {
      if (line.isMeta === true || line.isCompactSummary === true) return [];
      turn++;
      return [{ type: "turn" }];
    }
    const events = [];
    for (const block of results) {
      const call = pending.take(str(block?.tool_use_id));
      if (!call) continue;
      const raw = resultText(block?.content);
      const isError = block?.is_error === true;
      const code = /^Exit code (\d+)\n?/.exec(raw);
      const text = code ? raw.slice(code[0].length) : raw;
      const exit = call.name === "Bash" ? code ? Number(code[1]) : isError ? 1 : 0 : null;
      events.push({
        type: "step",
        step: buildStep(call, {
          text,
          exit_code: exit,
          error: isError,
          write: isError ? null : writeOf(call.name, line.toolUseResult)
        })
      });
    }
    return events;
  }
  return {
    format: "claude-code",
    push(record, at) {
      const line = asRecord(record);
      const type = str(line?.type);
      if (!line || !type) throw new TraceParseError(at, "not a Claude Code session line (no type)");
      const message = asRecord(line.message);
      if (type === "assistant") {
        if (!message) throw new TraceParseError(at, "an assistant line without a message");
        return assistant(line, message, at);
      }
      if (type === "user") {
        if (!message) throw new TraceParseError(at, "a user line without a message");
        return user(line, message);
      }
      return [];
    },
    end: () => pending.end()
  };
}

// checks/progress/parsers/codex.ts
function usageOf2(raw) {
  const usage = asRecord(raw);
  if (!usage) return null;
  return {
    // OpenAI's input_tokens already include the cached ones.
    input_tokens: num(usage.input_tokens) ?? 0,
    cached_input_tokens: num(usage.cached_input_tokens) ?? 0,
    cache_creation_input_tokens: 0,
    output_tokens: (num(usage.output_tokens) ?? 0) + (num(usage.reasoning_output_tokens) ?? 0),
    cost_usd: null
  };
}
function commandText(raw) {
  if (typeof raw === "string") return raw;
  if (!Array.isArray(raw) || !raw.every((w) => typeof w === "string")) return null;
  const argv = raw;
  if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0] ?? "") && /^-l?c$/.test(argv[1] ?? "")) {
    return argv[2] ?? "";
  }
  return argv.join(" ");
}
function parseOutput(raw) {
  try {
    const parsed = asRecord(JSON.parse(raw));
    if (parsed && typeof parsed.output === "string") {
      return { text: parsed.output, exit: num(asRecord(parsed.metadata)?.exit_code) };
    }
  } catch {
  }
  const code = /^(?:Exit code:|Process exited with code)\s*(-?\d+)/m.exec(raw);
  const body = /\nOutput:\n([\s\S]*)$/.exec(raw);
  return { text: body ? body[1] ?? "" : raw, exit: code ? Number(code[1]) : null };
}
function createCodexParser() {
  let turn = 0;
  const pending = openCalls();
  function call(payload, at, time) {
    const callId = str(payload.call_id) ?? str(payload.id);
    if (!callId) throw new TraceParseError(at, `a ${String(payload.type)} without call_id`);
    const name = str(payload.name) ?? "shell";
    const given = payload.arguments ?? payload.input ?? payload.action;
    const args = payload.type === "function_call" ? jsonOrText(given) : given;
    const record = asRecord(args);
    const command = payload.type === "custom_tool_call" ? null : commandText(record?.command ?? record?.cmd ?? null);
    const patch = typeof args === "string" && name === "apply_patch" ? args : null;
    const patched = patch ? /\*\*\* (?:Update|Add|Delete) File: (.+)/.exec(patch)?.[1] : null;
    const { workdir: _workdir, timeout_ms: _timeout, ...kept } = record ?? {};
    pending.add(callId, {
      at,
      tool: name,
      args: record ? kept : args,
      command,
      kind: name === "apply_patch" ? "write" : command === null ? "other" : void 0,
      path: patched ?? null,
      model_call: null,
      turn: Math.max(turn, 1),
      time
    });
  }
  function output(payload) {
    const found = pending.take(str(payload.call_id));
    if (!found) return [];
    const raw = str(payload.output) ?? str(asRecord(payload.output)?.content) ?? "";
    const { text, exit } = parseOutput(raw);
    const failed = exit !== null ? exit !== 0 : /^(error|apply_patch verification failed)/i.test(text);
    return [
      {
        type: "step",
        step: buildStep(found, { text, exit_code: exit, error: failed })
      }
    ];
  }
  return {
    format: "codex",
    push(record, at) {
      const line = asRecord(record);
      const type = str(line?.type);
      const payload = asRecord(line?.payload);
      if (!line || !type) throw new TraceParseError(at, "not a Codex rollout line (no type)");
      if (!payload) {
        if (type === "session_meta" || type === "response_item" || type === "event_msg")
          throw new TraceParseError(at, `a ${type} line without a payload object`);
        return [];
      }
      const kind = str(payload.type);
      const time = str(line.timestamp);
      if (type === "response_item") {
        if (kind === "function_call" || kind === "custom_tool_call" || kind === "local_shell_call") {
          call(payload, at, time);
          return [];
        }
        if (kind === "function_call_output" || kind === "custom_tool_call_output") {
          return output(payload);
        }
        return [];
      }
      if (type === "event_msg") {
        if (kind === "user_message") {
          turn++;
          return [{ type: "turn" }];
        }
        if (kind === "token_count") {
          const info = asRecord(payload.info);
          const total = usageOf2(info?.total_token_usage);
          return total ? [{ type: "usage-total", total, last: usageOf2(info?.last_token_usage) }] : [];
        }
        if (kind === "error" || kind === "stream_error") {
          return infrastructureEvent(str(payload.message) ?? "", at, "server-error");
        }
      }
      return [];
    },
    end: () => pending.end()
  };
}

// checks/progress/parsers/mini-swe-agent.ts
function resultOf(text) {
  const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  const output = /<output>\n?([\s\S]*?)<\/output>/.exec(text);
  return {
    exit: code ? Number(code[1]) : null,
    output: output ? output[1] ?? "" : text
  };
}
function toolCallsOf(calls, at) {
  return calls.map((raw, i) => {
    const call = asRecord(raw);
    const fn = asRecord(call?.function);
    const callId = str(call?.id);
    if (!call || !fn || !callId) {
      throw new TraceParseError(at, `tool_calls[${i}] has no id or function`);
    }
    const args = jsonOrText(fn.arguments);
    return { callId, tool: str(fn.name) ?? "bash", args, command: str(asRecord(args)?.command) };
  });
}
function toolResultStep(call, message) {
  const extra = asRecord(message.extra);
  const parsed = resultOf(str(message.content) ?? "");
  const exit = num(extra?.returncode) ?? parsed.exit;
  const text = str(extra?.raw_output) ?? parsed.output;
  return { type: "step", step: buildStep(call, { text, exit_code: exit, error: exit !== 0 }) };
}
function textResultStep(call, content) {
  const parsed = resultOf(content);
  const timedOut = parsed.exit === null && /timed out/i.test(content) ? "timeout" : null;
  return {
    type: "step",
    step: buildStep(call, {
      text: parsed.output,
      exit_code: parsed.exit,
      error: parsed.exit !== null && parsed.exit !== 0,
      infrastructure: timedOut
    })
  };
}
function exitEvents(message, at) {
  const extra = asRecord(message.extra);
  const status = str(extra?.exit_status);
  const text = str(extra?.exception_str) ?? str(message.content) ?? "";
  const kind = status && status !== "Submitted" ? infrastructureOf(`${status} ${text}`) : null;
  return kind ? [{ type: "infrastructure", kind, at, message: text.slice(0, 300) }] : [];
}
function infoEvents(info, at, infrastructureSeen) {
  const { status } = info.exit;
  const events = [];
  const kind = status && status !== "Submitted" ? infrastructureOf(status) : null;
  if (kind && !infrastructureSeen)
    events.push({ type: "infrastructure", kind, at, message: status ?? "" });
  events.push(info.exit);
  return events;
}
function createMiniSweAgentParser() {
  let turn = 0;
  let modelCalls = 0;
  let infrastructureSeen = false;
  let pendingText = null;
  const pendingTools = openCalls();
  function callFrom(command, at, modelCall, args) {
    return {
      at,
      tool: "bash",
      args: args ?? { command: command.trim() },
      command,
      model_call: modelCall,
      turn: Math.max(turn, 1),
      time: null
    };
  }
  function assistant(message, at) {
    const extra = asRecord(message.extra);
    const response = asRecord(extra?.response);
    modelCalls++;
    const id = str(response?.id) ?? `call-${modelCalls}`;
    const events = [
      { type: "model-call", id, usage: openAiUsage(response?.usage, num(extra?.cost)) }
    ];
    if (Array.isArray(message.tool_calls)) {
      for (const { callId, tool, args, command } of toolCallsOf(message.tool_calls, at)) {
        pendingTools.add(callId, { ...callFrom(command ?? "", at, id, args), tool, command });
      }
      return events;
    }
    const content = str(message.content) ?? "";
    const blocks = [...content.matchAll(/```bash\s*\n([\s\S]*?)\n```/g)];
    pendingText = blocks.length === 1 ? callFrom(blocks[0]?.[1] ?? "", at, id) : null;
    return events;
  }
  function user(message) {
    const content = str(message.content) ?? "";
    if (turn === 0) {
      turn = 1;
      return [{ type: "turn" }];
    }
    if (!pendingText) return [];
    const call = pendingText;
    pendingText = null;
    return [textResultStep(call, content)];
  }
  return {
    format: "mini-swe-agent",
    push(record, at) {
      const message = objectAt(record, at, "a message");
      const info = runInfo(message);
      if (info) return infoEvents(info, at, infrastructureSeen);
      switch (message.role) {
        case "system":
          return [];
        case "assistant":
          return assistant(message, at);
        case "tool": {
          const call = pendingTools.take(str(message.tool_call_id));
          return call ? [toolResultStep(call, message)] : [];
        }
        case "user":
          return user(message);
        case "exit": {
          const events = exitEvents(message, at);
          if (events.length > 0) infrastructureSeen = true;
          return events;
        }
        default:
          throw new TraceParseError(
            at,
            `unknown message role ${JSON.stringify(message.role)} (expected system, user, assistant, tool or exit)`
          );
      }
    },
    end() {
      const open = [...pendingTools.end(), ...pendingText ? [unanswered(pendingText)] : []];
      pendingText = null;
      return open;
    }
  };
}

// checks/progress/parsers/openhands.ts
var TOOL_ACTIONS = {
  run: void 0,
  // a shell command: kind from its text
  run_ipython: "command",
  read: "read",
  edit: "write",
  write: "write",
  browse: "other",
  browse_interactive: "other",
  call_tool_mcp: "other"
};
var COSMETIC_ARGS = /* @__PURE__ */ new Set([
  "thought",
  "impl_source",
  "confirmation_state",
  "is_input",
  "blocking",
  "hidden",
  "security_risk"
]);
function createOpenHandsParser() {
  let turn = 0;
  const pending = openCalls();
  function modelCall(event) {
    const metadata = asRecord(event.tool_call_metadata);
    const response = asRecord(metadata?.model_response);
    const id = str(response?.id);
    if (!id) return { id: null, events: [] };
    return { id, events: [{ type: "model-call", id, usage: openAiUsage(response?.usage) }] };
  }
  function action(event, name, at) {
    const source = str(event.source);
    const args = asRecord(event.args) ?? {};
    if (source === "user" && name === "message") {
      turn++;
      return [{ type: "turn" }];
    }
    if (source !== "agent") return [];
    const call = modelCall(event);
    if (!(name in TOOL_ACTIONS)) return call.events;
    const id = num(event.id);
    if (id === null) throw new TraceParseError(at, `the ${name} action has no numeric id`);
    const kept = Object.fromEntries(Object.entries(args).filter(([k]) => !COSMETIC_ARGS.has(k)));
    const command = name === "run" ? str(args.command) ?? "" : null;
    pending.add(id, {
      at,
      tool: str(asRecord(event.tool_call_metadata)?.function_name) ?? name,
      args: kept,
      command,
      kind: TOOL_ACTIONS[name],
      path: str(args.path),
      undo: name === "edit" && args.command === "undo_edit",
      model_call: call.id,
      turn: Math.max(turn, 1),
      time: str(event.timestamp)
    });
    return call.events;
  }
  function observation(event, name, at) {
    const extras = asRecord(event.extras) ?? {};
    if (name === "agent_state_changed" && extras.agent_state === "error") {
      return infrastructureEvent(str(extras.reason) ?? "", at);
    }
    const call = pending.take(num(event.cause));
    if (!call) return [];
    const text = str(event.content) ?? "";
    const exit = num(asRecord(extras.metadata)?.exit_code);
    const isEdit = name === "edit" || name === "write";
    const oldContent = str(extras.old_content);
    const newContent = str(extras.new_content);
    const step = buildStep(
      call,
      {
        text,
        exit_code: exit,
        error: name === "error" || exit !== null && exit !== 0,
        write: isEdit && newContent !== null ? {
          before: oldContent === null ? null : contentHash(oldContent),
          after: contentHash(newContent)
        } : null,
        // exit -1: the command did not return within the runtime's wait (a server, a hang).
        infrastructure: exit === -1 ? "timeout" : null
      },
      { undo: call.undo }
    );
    return [{ type: "step", step }];
  }
  return {
    format: "openhands",
    push(record, at) {
      const event = objectAt(record, at, "an event");
      const act = str(event.action);
      const obs = str(event.observation);
      if (act) return action(event, act, at);
      if (obs) return observation(event, obs, at);
      if (!("id" in event) && !("source" in event)) {
        throw new TraceParseError(
          at,
          "not an OpenHands event (no id, source, action or observation)"
        );
      }
      return [];
    },
    end: () => pending.end()
  };
}

// checks/progress/parsers/swe-agent.ts
var SWE_COMMANDS = {
  open: "read",
  goto: "read",
  scroll_up: "read",
  scroll_down: "read",
  search_file: "search",
  search_dir: "search",
  find_file: "search",
  create: "write",
  edit: "write",
  insert: "write",
  append: "write",
  submit: "other"
};
function openFileOf(state) {
  let value = state;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const file = str(asRecord(value)?.open_file);
  return file && file !== "n/a" ? file : null;
}
function createSweAgentParser() {
  let calls = 0;
  return {
    format: "swe-agent",
    push(record, at) {
      const step = objectAt(record, at, "a trajectory step");
      const info = runInfo(step);
      if (info) {
        const { exit, stats } = info;
        return [
          {
            ...exit,
            model_calls: exit.model_calls || null,
            input_tokens: num(stats?.tokens_sent),
            output_tokens: num(stats?.tokens_received)
          }
        ];
      }
      const action = str(step.action);
      if (action === null) throw new TraceParseError(at, "the step has no action text");
      calls++;
      const events = [
        { type: "model-call", id: `step-${calls}`, usage: null },
        ...calls === 1 ? [{ type: "turn" }] : []
      ];
      const command = action.trim();
      if (command === "") return events;
      const [word = "", ...rest] = command.split(/\s+/);
      const editor = word === "str_replace_editor" ? rest[0] : null;
      const own2 = editor ? editor === "view" ? "read" : "write" : SWE_COMMANDS[word];
      const named = editor ? rest[1] ?? null : word === "open" || word === "create" ? rest[0] : null;
      const observation = str(step.observation) ?? "";
      events.push({
        type: "step",
        step: buildStep(
          {
            at,
            tool: own2 ? word : "bash",
            args: { command },
            command: own2 ? null : command,
            kind: own2,
            path: own2 ? named ?? openFileOf(step.state) : void 0,
            model_call: `step-${calls}`,
            turn: 1,
            time: null
          },
          { text: observation, exit_code: null, error: false },
          { undo: editor === "undo_edit" }
        )
      });
      return events;
    },
    end: () => []
  };
}

// checks/progress/parsers/index.ts
function createParser(format) {
  switch (format) {
    case "claude-code":
      return createClaudeCodeParser();
    case "codex":
      return createCodexParser();
    case "openhands":
      return createOpenHandsParser();
    case "swe-agent":
      return createSweAgentParser();
    default:
      return createMiniSweAgentParser();
  }
}
var CODEX_TYPES = /* @__PURE__ */ new Set([
  "session_meta",
  "response_item",
  "event_msg",
  "turn_context",
  "compacted"
]);
var LINE_FORMATS = ["claude-code", "codex"];
var CLAUDE_TYPES = /* @__PURE__ */ new Set(["user", "assistant", "summary", "system"]);
var CLAUDE_ONLY_TYPES = /* @__PURE__ */ new Set([
  "file-history-snapshot",
  "queue-operation",
  "progress",
  "attachment",
  "custom-title",
  "ai-title",
  "agent-name",
  "last-prompt",
  "permission-mode",
  "pr-link",
  "worktree-state"
]);
function detectLineFormat(record) {
  const line = asRecord(record);
  if (!line) return null;
  const type = str(line.type);
  if (type && CODEX_TYPES.has(type) && "payload" in line) return "codex";
  if (type && CLAUDE_ONLY_TYPES.has(type) && ("snapshot" in line || "sessionId" in line))
    return "claude-code";
  if (type && CLAUDE_TYPES.has(type) && ("sessionId" in line || "uuid" in line || "leafUuid" in line))
    return "claude-code";
  if ("source" in line && ("action" in line || "observation" in line)) return "openhands";
  return null;
}
function isOpenHandsItem(item) {
  if (Array.isArray(item)) return item.some((inner) => detectLineFormat(inner) === "openhands");
  return detectLineFormat(item) === "openhands";
}
function detectDocumentFormat(document) {
  if (Array.isArray(document))
    return document.length === 0 || isOpenHandsItem(document[0]) ? "openhands" : null;
  const doc = asRecord(document);
  if (!doc) return null;
  if (Array.isArray(doc.trajectory)) return "swe-agent";
  if (Array.isArray(doc.messages) && (str(doc.trajectory_format)?.startsWith("mini-swe-agent") ?? "info" in doc))
    return "mini-swe-agent";
  if (Array.isArray(doc.history) && (doc.history.length === 0 || isOpenHandsItem(doc.history[0])))
    return "openhands";
  return null;
}
function* openHandsEvents(list, key) {
  for (const [i, item] of list.entries()) {
    if (Array.isArray(item)) {
      for (const [j, inner] of item.entries()) yield { record: inner, at: `${key}[${i}][${j}]` };
    } else yield { record: item, at: `${key}[${i}]` };
  }
}
function* documentRecords(document, format) {
  if (format === "openhands") {
    if (Array.isArray(document)) {
      yield* openHandsEvents(document, "event ");
      return;
    }
    const history = asRecord(document)?.history;
    if (!Array.isArray(history))
      throw new TraceParseError("document", "expected a JSON array of events or a history array");
    yield* openHandsEvents(history, "history");
    return;
  }
  const doc = asRecord(document);
  const key = format === "swe-agent" ? "trajectory" : format === "mini-swe-agent" ? "messages" : null;
  const list = key ? doc?.[key] : null;
  if (!doc || !key || !Array.isArray(list)) {
    throw new TraceParseError(
      "document",
      `expected an object with a ${key ?? "records"} array (${format})`
    );
  }
  for (const [i, record] of list.entries()) yield { record, at: `${key}[${i}]` };
  yield { record: { __info: doc.info ?? null }, at: "info" };
}

// checks/progress/analyse.ts
function createTraceAnalysis(format, thresholds = {}) {
  const parser = createParser(format);
  const detector = new ProgressDetector(format, thresholds);
  return {
    format,
    push(record, at) {
      detector.record();
      for (const event of parser.push(record, at)) detector.push(event);
    },
    finish() {
      for (const event of parser.end()) detector.push(event);
      return detector.report();
    }
  };
}

// action/trace/read.ts
var MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
var MAX_LINE_BYTES = 256 * 1024 * 1024;
var DETECT_WITHIN_RECORDS = 50;
var TraceFileError = class extends Error {
  name = "TraceFileError";
};
var FORMATS_TEXT = TRACE_FORMATS.join(", ");
async function analyseTraceFile(path, options = {}) {
  const size = regularFileSize(path);
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  if (await isJsonLines(path, options.format, maxLine)) return analyseLines(path, options);
  return analyseDocument(path, size, options);
}
function regularFileSize(path) {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) {
      throw new TraceFileError(
        `${path} is not a regular file (a ${stat.isSymbolicLink() ? "symbolic link" : "directory or special file"}); pass the trace file itself`
      );
    }
    return stat.size;
  } catch (error) {
    if (error instanceof TraceFileError) throw error;
    throw new TraceFileError(`cannot read ${path}: ${error.message}`);
  }
}
async function isJsonLines(path, format, maxLine) {
  if (format && LINE_FORMATS.includes(format)) return true;
  if (format && format !== "openhands") return false;
  if (/\.jsonl$/.test(basename(path))) return true;
  let first = null;
  for await (const [, text] of lines(path, maxLine)) {
    if (first === null) {
      if (text.trim() === "") continue;
      first = text;
      let value;
      try {
        value = JSON.parse(text);
      } catch {
        return false;
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
      if (detectLineFormat(value)) return true;
      continue;
    }
    if (text.trim() !== "") return true;
  }
  return false;
}
function analyseDocument(path, size, options) {
  const limit = options.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
  if (size > limit) {
    throw new TraceParseError(
      "document",
      `${path} is one JSON document of ${size} bytes, over the ${limit}-byte limit for whole-document traces (.traj, .traj.json, OpenHands arrays); JSONL traces have no such limit`
    );
  }
  const text = readFileSync(path, "utf8");
  let document;
  try {
    document = JSON.parse(text);
  } catch (error) {
    const message = error.message;
    const position = /position (\d+)/.exec(message);
    const line = position ? text.slice(0, Number(position[1])).split("\n").length : null;
    throw new TraceParseError(line ? `line ${line}` : "document", `not valid JSON: ${message}`);
  }
  const format = options.format ?? detectDocumentFormat(document);
  if (!format) {
    throw new TraceParseError(
      "document",
      `not a trace agate reads: expected one of ${FORMATS_TEXT} (a SWE-agent .traj with trajectory[], a mini-swe-agent .traj.json with messages[], or OpenHands events or history); pass --format to say which`
    );
  }
  const analysis = createTraceAnalysis(format, options.thresholds);
  for (const { record, at } of documentRecords(document, format)) analysis.push(record, at);
  return analysis.finish();
}
async function* lines(path, maxLineBytes) {
  let parts = [];
  let length = 0;
  let number = 0;
  for await (const chunk of createReadStream(path, {
    highWaterMark: 1024 * 1024
  })) {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, nl));
      number++;
      yield [number, Buffer.concat(parts).toString("utf8")];
      parts = [];
      length = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      length += chunk.length - start;
      if (length > maxLineBytes) {
        throw new TraceParseError(
          `line ${number + 1}`,
          `longer than ${maxLineBytes} bytes; a JSONL trace holds one record per line`
        );
      }
    }
  }
  if (length > 0) yield [number + 1, Buffer.concat(parts).toString("utf8")];
}
var isDocumentName = (path) => /\.traj(\.json)?$|\.json$/.test(basename(path));
async function analyseLines(path, options) {
  let analysis = null;
  const waiting = [];
  for await (const [number, text] of lines(path, options.maxLineBytes ?? MAX_LINE_BYTES)) {
    if (text.trim() === "") continue;
    const at = `line ${number}`;
    let record;
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new TraceParseError(at, `not valid JSON: ${error.message}`);
    }
    if (analysis) {
      analysis.push(record, at);
      continue;
    }
    waiting.push({ record, at });
    const format = options.format ?? detectLineFormat(record);
    if (!format) {
      if (waiting.length < DETECT_WITHIN_RECORDS) continue;
      throw notATrace(waiting[0]?.at ?? at, path);
    }
    analysis = createTraceAnalysis(format, options.thresholds);
    for (const held of waiting.splice(0)) analysis.push(held.record, held.at);
  }
  if (!analysis) {
    if (waiting.length === 0) throw new TraceParseError("line 1", "the trace is empty");
    throw notATrace(waiting[0]?.at ?? "line 1", path);
  }
  return analysis.finish();
}
function notATrace(at, path) {
  return new TraceParseError(
    at,
    `not a trace agate reads: expected one of ${FORMATS_TEXT} (Claude Code session JSONL, Codex rollout JSONL, OpenHands events)${isDocumentName(path) ? "; a .json or .traj file must be one JSON document" : ""}; pass --format to say which`
  );
}

// action/trace.ts
var MAX_TRACE_FILES = TRACE_FILES_LIMIT;
function resolveTraceFiles(cwd, pattern) {
  const scan = import_picomatch.default.scan(pattern);
  if (!scan.isGlob) return [resolve(cwd, pattern)];
  const base = resolve(cwd, scan.base || ".");
  const match = (0, import_picomatch.default)(scan.glob, { dot: true });
  const found = [];
  let entries;
  try {
    entries = readdirSync(base, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (match(relative(base, path))) found.push(path);
  }
  return found.sort().slice(0, MAX_TRACE_FILES);
}
function noLinkOnPath(cwd, file) {
  const within = relative(cwd, file);
  const outside = within.startsWith("..") || isAbsolute(within);
  const lexical = outside ? file : resolve(realpathSync(cwd), within);
  let real;
  try {
    real = realpathSync(lexical);
  } catch {
    return true;
  }
  return real === lexical;
}
async function readTraces(cwd, pattern, thresholds = {}) {
  const files = resolveTraceFiles(cwd, pattern);
  if (files.length === 0) {
    return [{ source: pattern, report: null, error: `no file matches ${pattern} under ${cwd}` }];
  }
  const outcomes = [];
  for (const file of files) {
    const inside = relative(cwd, file);
    const source = inside && !inside.startsWith("..") ? inside : file;
    if (!noLinkOnPath(cwd, file)) {
      outcomes.push({
        source,
        report: null,
        error: `${source} is reached through a symbolic link: agate reads a trace only at its own path, never through a link`
      });
      continue;
    }
    try {
      outcomes.push({ source, report: await analyseTraceFile(file, { thresholds }), error: null });
    } catch (error) {
      outcomes.push({ source, report: null, error: error.message });
    }
  }
  return outcomes;
}

// action/trace-summary.ts
async function traceSection(traces, options) {
  const json = traces.map(({ source, report, error }) => ({ source, report, error }));
  const where = await uploadTraceReport(`${JSON.stringify(json, null, 2)}
`, options);
  return `
${renderTraces(traces)}
The trace reports are ${where}.
`;
}
function renderTraces(traces) {
  return traces.map(
    ({ source, report, error }) => report ? renderProgressMarkdown(report, source) : `### Agent trace ${codeSpan(source, 200)}: not read

${codeSpan(error ?? "", 500)}. The commands' verdict does not depend on it; fix the trace input or the file to get a progress report.
`
  ).join("\n");
}
export {
  readTraces,
  traceSection
};
