/** A small typed event emitter; a throwing listener does not stop the others. */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(value: never) => void>>();

  on<K extends keyof Events>(type: K, listener: (value: Events[K]) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  emit<K extends keyof Events>(type: K, ...args: Events[K] extends void ? [] : [Events[K]]): void {
    const set = this.listeners.get(type);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (value: Events[K] | undefined) => void)(args[0]);
      } catch (error) {
        // One screen's bug must not break the engine's delivery to the others.
        console.error(error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
