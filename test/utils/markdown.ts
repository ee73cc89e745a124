/** Reading the documentation's markdown in tests: a section by its heading, a table's rows. */

/** The text of a markdown section: from its heading line to the next heading of the same or a higher level. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  // a `# comment` inside a code block is no heading
  let fenced = false;
  const end = lines.findIndex((l, i) => {
    if (l.startsWith('```')) fenced = !fenced;
    return i > start && !fenced && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level;
  });
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The rows of the markdown table whose header line is `header` (after its separator), as trimmed cells. */
export function tableRows(text: string, header: string): string[][] {
  const lines = text.split('\n');
  const start = lines.indexOf(header);
  if (start < 0) throw new Error(`no table "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    // split on the | that are not escaped (`'stdout'\|'stderr'`)
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  }
  return rows;
}
