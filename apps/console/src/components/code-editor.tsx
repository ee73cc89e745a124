import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { defaultHighlightStyle, indentOnInput, indentUnit, StreamLanguage, syntaxHighlighting, type StreamParser } from '@codemirror/language';
import { powerShell } from '@codemirror/legacy-modes/mode/powershell';
import { python } from '@codemirror/legacy-modes/mode/python';
import { shell as shellMode } from '@codemirror/legacy-modes/mode/shell';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import type { Shell } from '../api/schemas';

const MODES: Record<Shell, StreamParser<unknown> | null> = {
  bash: shellMode as StreamParser<unknown>,
  python: python as StreamParser<unknown>,
  powershell: powerShell as StreamParser<unknown>,
  cmd: null,
};

/** The shell's highlighting, and its usual indentation (four spaces in Python and PowerShell, two in shell). */
function languageOf(shell: Shell) {
  const mode = MODES[shell];
  const unit = indentUnit.of(shell === 'bash' ? '  ' : '    ');
  return mode ? [StreamLanguage.define(mode), unit] : [unit];
}

/** Sizes and fonts of the editor, inside its shadow root (the page's CSS does not reach there). */
const theme = EditorView.theme({
  '&': { minHeight: '12rem', maxHeight: '60vh', fontSize: '0.85rem', backgroundColor: '#fff', color: '#1f2d3d' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace', minHeight: '12rem' },
  '.cm-gutters': { backgroundColor: '#f3f5f7', color: '#4f5b67', borderRight: '1px solid #d5dbe1' },
  '&.cm-focused': { outline: '2px solid #0172ad' },
});

/**
 * CodeMirror 6 for a script's body, highlighted by its shell (this module is loaded only by the script page).
 * It lives in a shadow root: CodeMirror then puts its styles in a constructed style sheet (adoptedStyleSheets)
 * instead of a <style> element, which the console's Content-Security-Policy (style-src 'self') refuses.
 */
export default function CodeEditor({ value, onChange, shell, readOnly, label }: { value: string; onChange: (v: string) => void; shell: Shell; readOnly: boolean; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const editable = useRef(new Compartment());
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const shadow = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const v = new EditorView({
      parent: shadow,
      root: shadow,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          indentOnInput(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          language.current.of(languageOf(shell)),
          editable.current.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
          theme,
          // An id reference cannot cross the shadow root: the label is given as text.
          // tabindex: focusable (and scrollable from the keyboard) even when read-only.
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true', role: 'textbox', tabindex: '0' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // Created once; the effects below follow the props.
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: language.current.reconfigure(languageOf(shell)) });
  }, [shell]);
  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]) });
  }, [readOnly]);
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return <div className="code-editor" ref={host} data-shell={shell} />;
}
