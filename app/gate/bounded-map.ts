/**
 * Sets `key` in a Map used as a cache of what never changes once read (a file at a commit, an
 * artifact), dropping the oldest entry past `limit`: a long-running App must not grow without end.
 */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.set(key, value);
  if (map.size > limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
