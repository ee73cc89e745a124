/**
 * xterm.js under the console's Content-Security-Policy (`style-src 'self'`: no <style> element, no style
 * attribute). xterm's DOM renderer writes its row and theme rules into <style> elements it creates with
 * `document.createElement('style')`, and 24-bit colours with `span.setAttribute('style', …)`: the browser refuses
 * both (and reports a violation each time), which leaves the terminal without its cell sizes and colours.
 *
 * The CSP does not govern the CSSOM, so the same rules go in by it: a 'style' that xterm asks the document for is
 * an inert element whose `textContent` fills a constructed stylesheet adopted by the document (dropped when the
 * element is removed), and a span's style attribute is set as `style.cssText`. Installed once, when the terminal
 * is first loaded; only the two shapes xterm uses are changed (the rest of the console creates neither).
 */
let installed = false;

export function allowXtermUnderCsp(doc: Document = document): void {
  if (installed) {
    return;
  }
  installed = true;

  const createElement = doc.createElement.bind(doc) as (tag: string, options?: ElementCreationOptions) => HTMLElement;
  const patched = (tag: string, options?: ElementCreationOptions): HTMLElement => (tag.toLowerCase() === 'style' ? adoptedStyle(doc, createElement) : createElement(tag, options));
  Object.defineProperty(doc, 'createElement', { value: patched, configurable: true, writable: true });

  const setAttribute = Element.prototype.setAttribute;
  Object.defineProperty(HTMLSpanElement.prototype, 'setAttribute', {
    configurable: true,
    writable: true,
    value: function (this: HTMLSpanElement, name: string, value: string) {
      if (name.toLowerCase() === 'style') {
        this.style.cssText = value;
        return;
      }
      setAttribute.call(this, name, value);
    },
  });
}

function adoptedStyle(doc: Document, createElement: (tag: string) => HTMLElement): HTMLElement {
  const el = createElement('rmm-style');
  el.hidden = true;
  const sheet = new CSSStyleSheet();
  let text = '';
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  Object.defineProperty(el, 'textContent', {
    configurable: true,
    get: () => text,
    set: (value: string | null) => {
      text = value ?? '';
      sheet.replaceSync(text);
    },
  });
  const remove = el.remove.bind(el);
  el.remove = () => {
    doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== sheet);
    remove();
  };
  return el;
}
