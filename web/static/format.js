/* dicelens: numbers, shares and times in the page's language. */

export function percent(p) {
  const value = p * 100;
  const digits = value !== 0 && Math.abs(value) < 10 ? 1 : 0;
  return value.toLocaleString(document.documentElement.lang, {
    minimumFractionDigits: digits, maximumFractionDigits: digits }) + " %";
}

export function number(n, digits) {
  return n.toLocaleString(document.documentElement.lang, { maximumFractionDigits: digits || 0 });
}

export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return date.toLocaleString(document.documentElement.lang, {
    day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}
