/**
 * A list whose rows carry a checkbox (`.row-select`) and a "select all on this page" box
 * (`#select-all`): the staff's money pages. Listens on the document, so that a list swapped in
 * by `refreshSections()` keeps working.
 */

/** @returns {HTMLInputElement[]} */
function boxes() {
  return /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll('input.row-select')]);
}

/**
 * @param {(checked: HTMLInputElement[]) => void} onChange told the checked boxes after every change
 * @returns {{ selectedRows: () => HTMLTableRowElement[], clear: () => void }}
 */
export function wireSelection(onChange) {
  function update() {
    const list = boxes();
    const checked = list.filter((box) => box.checked);
    const all = /** @type {HTMLInputElement | null} */ (document.getElementById('select-all'));
    if (all) {
      all.checked = list.length > 0 && checked.length === list.length;
      all.indeterminate = checked.length > 0 && checked.length < list.length;
    }
    onChange(checked);
  }
  document.addEventListener('change', (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.id === 'select-all') for (const box of boxes()) box.checked = target.checked;
    if (target.id === 'select-all' || target.classList.contains('row-select')) update();
  });
  update();
  return {
    selectedRows: () =>
      boxes()
        .filter((box) => box.checked)
        .map((box) => /** @type {HTMLTableRowElement} */ (box.closest('tr'))),
    clear() {
      for (const box of boxes()) box.checked = false;
      update();
    },
  };
}

/**
 * Writes the outcome of an action in a row's `.row-result` cell.
 * @param {Element | undefined} row
 * @param {string} text
 * @param {'ok' | 'skipped'} kind
 */
export function setRowResult(row, text, kind) {
  const cell = row?.querySelector('.row-result');
  if (!cell) return;
  const span = document.createElement('span');
  span.className = `result-${kind}`;
  span.textContent = text;
  cell.replaceChildren(span);
}

/**
 * "1 facture", "3 factures".
 * @param {number} count @param {string} one @param {string} many
 */
export function plural(count, one, many) {
  return count === 1 ? `1 ${one}` : `${count} ${many}`;
}
