import { useEffect, type RefObject } from 'react';

/**
 * Names each table cell after its column (`data-label`, from the table's header row), for the phone layout: there
 * a table's rows are stacked as cards and each cell shows its column's name before it (styles.css), so nothing
 * scrolls sideways and no column is cut off. Cells spanning columns (a row's details) get none. Watches `root`
 * for rows added later (lists that load, live updates).
 */
export function useCellLabels(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const label = () => {
      for (const table of el.querySelectorAll<HTMLTableElement>('table.striped:not(.agents)')) {
        const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
        for (const row of table.querySelectorAll<HTMLTableRowElement>('tbody tr')) {
          let column = 0;
          for (const cell of row.cells) {
            if (cell.colSpan === 1 && cell.dataset.label !== heads[column]) cell.dataset.label = heads[column] ?? '';
            column += cell.colSpan;
          }
        }
      }
    };
    label();
    const watcher = new MutationObserver(label);
    watcher.observe(el, { childList: true, subtree: true });
    return () => watcher.disconnect();
  }, [root]);
}
