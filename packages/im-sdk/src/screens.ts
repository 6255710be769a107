import type { Handle } from './handle.js';

/** The conversation screens open on this device, by conversation: their handles. */
export class Screens {
  private readonly open = new Map<string, Set<Handle>>();

  add(handle: Handle): void {
    let set = this.open.get(handle.conversationId);
    if (!set) {
      set = new Set();
      this.open.set(handle.conversationId, set);
    }
    set.add(handle);
  }

  remove(handle: Handle): void {
    const set = this.open.get(handle.conversationId);
    set?.delete(handle);
    if (set?.size === 0) this.open.delete(handle.conversationId);
  }

  /** Whether a screen shows this conversation (its messages are kept complete). */
  has(conversationId: string): boolean {
    return this.open.has(conversationId);
  }

  conversationIds(): Iterable<string> {
    return this.open.keys();
  }

  /** The conversation's state changed: its screens read their window again. */
  reload(conversationId: string): void {
    for (const handle of this.of(conversationId)) void handle.reload();
  }

  showTyping(conversationId: string): void {
    for (const handle of this.of(conversationId)) handle.showTyping();
  }

  hideTyping(conversationId: string): void {
    for (const handle of this.of(conversationId)) handle.hideTyping();
  }

  /** Closes every screen's handle (the engine stops). */
  closeAll(): void {
    for (const set of this.open.values()) for (const handle of set) handle.dispose();
    this.open.clear();
  }

  private of(conversationId: string): Iterable<Handle> {
    return this.open.get(conversationId) ?? [];
  }
}
