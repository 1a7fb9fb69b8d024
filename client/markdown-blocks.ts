/**
 * Markdown that streams in, cut where it can be rendered: after a blank line outside a code
 * fence, so a table, a list or a paragraph is drawn whole (a table cannot be fitted to the width
 * row by row). What follows the last blank line waits for more text or for {@link MarkdownBlocks.rest}.
 */
export class MarkdownBlocks {
  private pending = '';

  /** Adds streamed text; returns the complete blocks it finished ('' when none). */
  push(text: string): string {
    this.pending += text;
    const cut = lastBlockEnd(this.pending);
    const blocks = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return blocks;
  }

  /** What is left (the stream ended): the last, unfinished block. */
  rest(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }
}

/** The offset just after the last blank line outside a ``` or ~~~ fence (0 when there is none). */
function lastBlockEnd(text: string): number {
  let fence: string | undefined;
  let end = 0;
  let offset = 0;
  for (const line of text.split('\n').slice(0, -1)) {
    offset += line.length + 1;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length)))
      fence = fence ? undefined : marker;
    else if (!fence && line.trim() === '') end = offset;
  }
  return end;
}
