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

/**
 * A read of what never changes, shared while in flight and remembered once it succeeded: a
 * failed read is forgotten (the next asks again), and so is a value `keep` refuses (too big to
 * hold: it is read again when needed rather than held for everyone).
 */
export function rememberRead<K, V>(
  map: Map<K, Promise<V>>,
  key: K,
  limit: number,
  read: () => Promise<V>,
  keep: (value: V) => boolean = () => true,
): Promise<V> {
  let found = map.get(key);
  if (!found) {
    const reading = read();
    found = reading;
    reading.then(
      (value) => {
        if (!keep(value) && map.get(key) === reading) map.delete(key);
      },
      () => {
        if (map.get(key) === reading) map.delete(key);
      },
    );
    remember(map, key, reading, limit);
  }
  return found;
}
