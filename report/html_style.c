/* The report page's style sheet and table sorter (no framework, no fonts or
 * files fetched: the system's sans-serif, and the charts' own SVG). */
#include "report/html_style.h"

const char html_style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;color:#222;"
    "margin:0;background:#fafafa}"
    "main{max-width:1200px;margin:0 auto;padding:16px 24px;background:#fff}"
    "h1{font-size:22px;margin:8px 0 16px;word-break:break-all}h2{font-size:18px;margin:28px 0 8px;"
    "border-bottom:2px solid #1f77b4;padding-bottom:2px}h3{font-size:15px;margin:18px 0 6px}"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:13px}"
    "th,td{border:1px solid #ddd;padding:3px 5px;text-align:right;white-space:nowrap}"
    "thead th{background:#eef3f8;position:sticky;top:0}"
    "table.sortable thead th{cursor:pointer}table.sortable thead th:hover{background:#dde7f2}"
    "tbody tr:nth-child(even){background:#f7f9fb}"
    "table.kv th{text-align:left;background:#eef3f8;width:1%}table.kv td{text-align:left;white-space:normal;"
    "word-break:break-all}"
    ".wide{overflow-x:auto;max-width:100%}.note{color:#555;font-size:12px}"
    "pre{background:#f4f4f4;padding:8px;overflow-x:auto;font-size:12px}"
    "figure{margin:12px 0}figure svg{max-width:100%;height:auto;display:block}"
    "#verdict .headline{font-size:17px;font-weight:600;margin:8px 0 10px}"
    "table.verdict tbody th{text-align:left;background:#eef3f8}.pos{color:#1a7f37}.neg{color:#c62828;font-weight:600}"
    ".reading{margin:4px 0}details{margin:10px 0}summary{cursor:pointer;font-weight:600}"

    "@page{size:A4;margin:12mm}"
    "@media print{body{background:#fff;font-size:10px}main{max-width:none;padding:0}"
    "table{font-size:8px}th,td{padding:1px 3px;white-space:normal}thead th{position:static}.wide{overflow:visible}"
    "pre{font-size:8px;white-space:pre-wrap;word-break:break-all}"
    "section,figure,tr{break-inside:avoid}h2{break-after:avoid}}";

/* Clicking a header of a table.sortable sorts its body by that column,
 * numbers as numbers (a trailing '*' or '%' ignored), again to reverse. */
const char html_script[] =
    "document.querySelectorAll('table.sortable').forEach(function(t){"
    "t.querySelectorAll('thead th').forEach(function(h,i){h.addEventListener('click',function(){"
    "var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),up=h.getAttribute('data-up')!=='1';"
    "t.querySelectorAll('thead th').forEach(function(o){o.removeAttribute('data-up');});"
    "h.setAttribute('data-up',up?'1':'0');"
    "function key(r){var s=r.cells[i].textContent.replace(/[*%]$/,''),v=parseFloat(s);"
    "return s==='inf'?Infinity:s==='-inf'?-Infinity:isNaN(v)?s:v;}"
    "rows.sort(function(x,y){var a=key(x),c=key(y);if(typeof a!==typeof c){a=String(a);c=String(c);}"
    "return (a<c?-1:a>c?1:0)*(up?1:-1);});"
    "rows.forEach(function(r){b.appendChild(r);});});});});";
