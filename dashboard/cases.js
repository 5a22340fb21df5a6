// Progressive enhancement for the Case pages: keyboard review. j / k follow the next / previous
// Case links (rel=next / rel=prev), d moves focus to the disposition form. Never while typing.
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const el = e.target;
  if (el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))) return;
  const go = (sel) => {
    const a = document.querySelector(sel);
    if (a) window.location.assign(a.href);
  };
  if (e.key === 'j') go('.review-nav a[rel=next]');
  else if (e.key === 'k') go('.review-nav a[rel=prev]');
  else if (e.key === 'd') {
    const first = document.querySelector('#disposition input[name=state]');
    if (first) {
      e.preventDefault();
      first.focus();
    }
  }
});
