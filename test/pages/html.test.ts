import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeHtml, html, raw, SafeHtml } from '../../src/format/html.ts';

/** What a browser makes of escaped text. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}

describe('html`…`', () => {
  it('should escape every interpolated value', () => {
    const name = '<img src=x onerror=alert(1)>';
    assert.equal(html`<td>${name}</td>`.toString(), '<td>&lt;img src=x onerror=alert(1)&gt;</td>');
    assert.equal(html`${`&<>"'`}`.toString(), '&amp;&lt;&gt;&quot;&#39;');
  });

  it('should keep a value inside its quoted attribute', () => {
    const evil = '" onmouseover="alert(1)';
    assert.equal(html`<tr data-email="${evil}">`.toString(), '<tr data-email="&quot; onmouseover=&quot;alert(1)">');
  });

  it('should leave the template text itself alone', () => {
    assert.equal(html`<p class="x">L'accès</p>`.toString(), `<p class="x">L'accès</p>`);
  });

  it('should pass raw() and nested templates through, escaping their values once', () => {
    const inner = html`<b>${'<i>'}</b>`;
    assert.ok(inner instanceof SafeHtml);
    assert.equal(html`<p>${inner}${raw('<br>')}</p>`.toString(), '<p><b>&lt;i&gt;</b><br></p>');
  });

  it('should join arrays, escaping each item that is not already safe', () => {
    assert.equal(html`<ul>${['<a>', html`<li>${'&'}</li>`]}</ul>`.toString(), '<ul>&lt;a&gt;<li>&amp;</li></ul>');
  });

  it('should render null, undefined and false as nothing, and other values as text', () => {
    assert.equal(html`[${null}${undefined}${false}]`.toString(), '[]');
    assert.equal(html`[${0}${true}${12.5}]`.toString(), '[0true12.5]');
  });

  it('should never let a string add markup, and give the same text back to a browser', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = html`<p title="${text}">${text}</p>`.toString();
        const inner = out.slice('<p title="'.length, -'</p>'.length);
        const [attribute, content] = [inner.slice(0, inner.indexOf('">')), inner.slice(inner.indexOf('">') + 2)];
        assert.doesNotMatch(attribute + content, /[<>"']/);
        assert.equal(decode(attribute), text);
        assert.equal(decode(content), text);
      }),
    );
  });
});

describe('escapeHtml', () => {
  it('should escape the five characters that matter and nothing else', () => {
    assert.equal(escapeHtml(`a&b<c>d"e'f é`), 'a&amp;b&lt;c&gt;d&quot;e&#39;f é');
  });
});
