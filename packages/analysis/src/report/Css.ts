/**
 * The report's stylesheet, inlined in the page (no external style sheet or font): the layout,
 * the colours of grades, speakers and evidence, the narrow-screen layouts and the print layout.
 */
export const CSS = `
:root{--ink:#0f172a;--ink-2:#334155;--muted:#64748b;--line:#e2e8f0;--line-2:#cbd5e1;--bg:#f1f5f9;--card:#fff;
--rep:#4f46e5;--buyer:#0d9488;--good:#15803d;--good-bg:#dcfce7;--fair:#b45309;--fair-bg:#fef3c7;--poor:#b91c1c;--poor-bg:#fee2e2;--accent:#4f46e5}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Liberation Sans","DejaVu Sans",sans-serif;font-variant-numeric:tabular-nums}
a{color:var(--accent);text-decoration:none}
a:hover{text-decoration:underline}
small{display:block;color:var(--muted);font-size:12px;font-weight:400}
.wrap{max-width:1120px;margin:0 auto;padding:0 28px}
.masthead{background:#0f172a;color:#e2e8f0;padding:26px 0 24px}
.brand{display:flex;align-items:center;gap:10px;font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:#94a3b8;font-weight:600}
.brand-mark{width:22px;height:22px}
.masthead h1{margin:8px 0 18px;font-size:26px;line-height:1.25;font-weight:650;color:#fff;word-break:break-word}
.masthead h1 .sub{display:block;font-size:14px;font-weight:400;color:#94a3b8;margin-top:4px}
.facts{display:flex;flex-wrap:wrap;gap:14px 40px;margin:0}
.facts div{min-width:0;max-width:100%}
.facts dt{font-size:11px;letter-spacing:.08em;text-transform:uppercase;color:#94a3b8;margin-bottom:2px}
.facts dd{margin:0;color:#f8fafc;font-weight:500;overflow-wrap:anywhere}
.facts .mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:13px}
.chips{display:flex;flex-wrap:wrap;gap:8px;margin-top:18px}
.chip{display:inline-flex;align-items:center;gap:8px;background:#1e293b;border:1px solid #334155;border-radius:999px;padding:4px 12px 4px 10px;font-size:13px;color:#e2e8f0}
.chip .dot{width:9px;height:9px;border-radius:50%}
.chip .role{color:#94a3b8}
main.wrap{padding-top:24px;padding-bottom:40px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:22px 24px;margin-bottom:20px;box-shadow:0 1px 2px rgba(15,23,42,.04)}
.card h2{margin:0 0 4px;font-size:17px;font-weight:650}
.card .lede{margin:0 0 16px;color:var(--muted);font-size:13px}
.notice{border-left:4px solid var(--fair);background:#fffdf5}
.notice p{margin:8px 0 0;font-size:13px;color:var(--ink-2)}
.summary{display:grid;grid-template-columns:minmax(300px,1fr) minmax(380px,1.3fr);gap:20px;margin-bottom:20px}
.summary .card{margin-bottom:0}
.overall{display:flex;gap:22px;align-items:center}
.ring{width:128px;height:128px;flex:none}
.ring-track{fill:none;stroke:#e2e8f0;stroke-width:11}
.ring-value{fill:none;stroke-width:11;stroke-linecap:round}
.ring-good{stroke:var(--good)}.ring-fair{stroke:#d97706}.ring-poor{stroke:var(--poor)}.ring-partial{stroke:#94a3b8}
.ring-number{font-size:36px;font-weight:700;fill:var(--ink)}
.ring-of{font-size:11px;fill:var(--muted)}
.overall h2{margin-bottom:6px}
.grade{display:inline-block;font-size:12px;font-weight:600;border-radius:999px;padding:2px 10px;margin-bottom:8px}
.grade-good{background:var(--good-bg);color:var(--good)}.grade-fair{background:var(--fair-bg);color:var(--fair)}.grade-poor{background:var(--poor-bg);color:var(--poor)}.grade-none{background:#f1f5f9;color:var(--muted)}.grade-partial{background:#f8fafc;color:var(--ink-2);border:1px dashed var(--line-2)}
.llm-note{margin-top:8px!important;font-size:12.5px!important;color:var(--muted)!important}
.llm-rejected{margin:4px 0 0;padding-left:18px;font-size:12.5px;color:var(--muted)}
.src-llm{display:inline-block;font-size:10.5px;font-weight:700;letter-spacing:.04em;border-radius:4px;padding:0 5px;margin-left:6px;background:#ede9fe;color:#5b21b6;vertical-align:1px}
.overall p{margin:0;color:var(--ink-2);font-size:13px}
.dimlist{list-style:none;margin:18px 0 0;padding:14px 0 0;border-top:1px solid var(--line);display:grid;grid-template-columns:1fr;gap:6px;font-size:12.5px}
.dimlist li{display:flex;align-items:center;gap:8px;min-width:0}
.dimlist a{flex:1;color:var(--ink-2);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.dimlist .mini{width:96px;height:6px;border-radius:999px;background:#e2e8f0;overflow:hidden;flex:none}
.dimlist .mini i{display:block;height:100%;border-radius:999px}
.dimlist .mini-good i{background:var(--good)}.dimlist .mini-fair i{background:#d97706}.dimlist .mini-poor i{background:var(--poor)}
.dimlist b{min-width:2.2em;text-align:right;font-size:12.5px}
.dimlist li.off a,.dimlist li.off b{color:var(--muted);font-weight:400}
.dimlist li.off .mini{background:repeating-linear-gradient(90deg,#e2e8f0 0 3px,transparent 3px 6px)}
.talk{width:100%;height:auto;display:block;margin-top:6px}
.talk .bar-rep{fill:var(--rep)}.talk .bar-buyer{fill:var(--buyer)}.talk .bar-empty{fill:#e2e8f0}
.talk .zone-high{fill:#fee2e2;opacity:.75}
.talk .bar-label{font-size:13px;font-weight:600;fill:#fff}
.talk .ref-line{stroke:var(--ink);stroke-width:2}
.talk .ref-high{stroke:var(--poor);stroke-dasharray:4 3;stroke-width:1.5}
.talk .ref-text{font-size:11.5px;fill:var(--ink);font-weight:600}
.talk .ref-high-text{fill:var(--poor);font-weight:500}
.talk .tick{font-size:11px;fill:var(--muted)}
.shares{margin-top:14px;display:grid;gap:7px}
.share{display:grid;grid-template-columns:minmax(0,13em) 1fr 7.5em;align-items:center;gap:12px;font-size:12.5px}
.share .who{display:flex;align-items:baseline;gap:6px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-weight:600}
.share .who i{width:9px;height:9px;border-radius:2px;flex:none;display:inline-block}
.share .who small{display:inline;font-size:11.5px}
.share .track{height:8px;background:#eef2f7;border-radius:999px;overflow:hidden}
.share .track i{display:block;height:100%;border-radius:999px}
.share .val{text-align:right;color:var(--ink-2);white-space:nowrap}
.note{margin:10px 0 0;font-size:12px;color:var(--muted)}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;vertical-align:top;padding:10px 12px;border-top:1px solid var(--line)}
thead th{border-top:0;font-size:11px;letter-spacing:.06em;text-transform:uppercase;color:var(--muted);font-weight:600;padding-top:4px}
tbody th{font-weight:600}
td.num,th.num{text-align:right;white-space:nowrap}
.score-cell{width:34%}
.meter{display:flex;align-items:center;gap:10px}
.meter-bar{flex:1;height:8px;border-radius:999px;background:#e2e8f0;overflow:hidden}
.meter-bar span{display:block;height:100%;border-radius:999px}
.meter-good span{background:var(--good)}.meter-fair span{background:#d97706}.meter-poor span{background:var(--poor)}.meter-partial span{background:#94a3b8}
.meter b{min-width:2.2em;text-align:right;font-size:16px}
.not-assessed{display:inline-block;font-size:12px;font-weight:600;color:var(--muted);background:#f1f5f9;border:1px dashed var(--line-2);border-radius:999px;padding:1px 10px}
.why{color:var(--ink-2);font-size:13px}
.why.muted{color:var(--muted)}
.ev-links{display:flex;flex-wrap:wrap;gap:5px;margin-top:6px}
.ev{display:inline-block;font-size:12px;font-weight:600;border-radius:6px;padding:0 7px;line-height:20px;border:1px solid}
.ev-neg{color:var(--poor);background:var(--poor-bg);border-color:#fecaca}
.ev-pos{color:var(--good);background:var(--good-bg);border-color:#bbf7d0}
.ev-zero{color:var(--muted);background:#f8fafc;border-color:var(--line)}
tr.dim-off th,tr.dim-off td{background:#fcfcfd}
tr.dim-off th{color:var(--muted)}
.total-row th,.total-row td{border-top:2px solid var(--line-2);font-weight:600}
.timeline{width:100%;height:auto;display:block}
.timeline .grid line{stroke:#eef2f7;stroke-width:1}
.timeline .axis{stroke:var(--line-2)}
.timeline .tick{font-size:11px;fill:var(--muted)}
.timeline .lane-bg{fill:#f8fafc;stroke:#eef2f7}
.timeline .lane-name{font-size:13px;font-weight:600;fill:var(--ink)}
.timeline .lane-role{font-size:11px;fill:var(--muted)}
.timeline .span{opacity:.13}
.timeline .span-neg{fill:var(--poor)}.timeline .span-pos{fill:var(--good)}.timeline .span-zero{fill:#64748b}
.timeline .pin line{stroke-width:1;stroke-dasharray:2 2}
.timeline .pin text{font-size:11px;font-weight:700;fill:#fff}
.timeline .pin-neg rect{fill:var(--poor)}.timeline .pin-neg line{stroke:var(--poor)}
.timeline .pin-pos rect{fill:var(--good)}.timeline .pin-pos line{stroke:var(--good)}
.timeline .pin-zero rect{fill:#64748b}.timeline .pin-zero line{stroke:#64748b}
.legend{display:flex;flex-wrap:wrap;gap:6px 18px;margin-top:10px;font-size:12px;color:var(--muted)}
.legend span{display:inline-flex;align-items:center;gap:6px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:3px}
.metrics td.value{font-weight:600;white-space:nowrap}
.metrics td.value .na{white-space:normal}
.metrics td.ref{color:var(--ink-2);font-size:13px}
.badge{display:inline-block;font-size:11.5px;font-weight:600;border-radius:999px;padding:1px 9px;white-space:nowrap}
.badge-ok{background:var(--good-bg);color:var(--good)}.badge-warn{background:var(--fair-bg);color:var(--fair)}.badge-bad{background:var(--poor-bg);color:var(--poor)}
.na{color:var(--muted);font-weight:400;font-style:italic}
.evidence td.when{white-space:nowrap;font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:12.5px}
.evidence tr:target td,.evidence tr:target th{background:#eef2ff}
.evidence .n{font-weight:700;color:var(--muted);width:2.5em}
.spk{display:inline-flex;align-items:center;gap:6px}
.spk i{width:8px;height:8px;border-radius:50%;display:inline-block}
.effect{font-weight:700}
.effect-neg{color:var(--poor)}.effect-pos{color:var(--good)}.effect-zero{color:var(--muted)}
.pending{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px;margin:0;padding:0;list-style:none}
.pending li{border:1px dashed var(--line-2);border-radius:10px;padding:12px 14px;background:#fbfcfe}
.pending b{display:block;font-size:13.5px}
.pending span{font-size:12.5px;color:var(--muted)}
.card-head{display:flex;align-items:center;gap:10px;margin-bottom:4px}
.card-head h2{margin:0}
.framework{font-size:11.5px;font-weight:700;letter-spacing:.08em;color:var(--accent);background:#eef2ff;border:1px solid #c7d2fe;border-radius:6px;padding:1px 8px}
.mono,.ts{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace}
.ts{font-size:12px;font-weight:500;white-space:nowrap;color:var(--accent)}
span.ts{color:var(--muted)}
a.ts{border-radius:4px;padding:0 3px;margin:0 -3px}
a.ts:hover{background:#eef2ff;text-decoration:none}
.quote{color:var(--ink)}
.quotes{list-style:none;margin:8px 0 0;padding:0;display:grid;gap:5px}
.quotes li{display:grid;grid-template-columns:auto 1fr;gap:10px;align-items:baseline;font-size:13px;padding:5px 8px 5px 0;border-left:3px solid var(--line);padding-left:9px}
.quotes li:has(.ev-pos){border-left-color:#86efac}
.quotes li:has(.ev-neg){border-left-color:#fca5a5}
.quotes .ev{font-size:11.5px}
.quotes .quote{color:var(--ink-2)}
.q-head{display:grid;grid-template-columns:auto 1fr auto;gap:18px;align-items:center;margin:0 0 16px;padding:12px 16px;background:#f8fafc;border:1px solid var(--line);border-radius:10px}
.q-total{display:flex;align-items:baseline;gap:8px;white-space:nowrap}
.q-total b{font-size:24px;font-weight:700;line-height:1}
.q-total span{color:var(--muted);font-size:12.5px}
.q-bar{display:flex;height:10px;border-radius:999px;overflow:hidden;gap:2px;background:#fff}
.q-bar i{display:block;height:100%}
.q-counts{display:flex;gap:14px;font-size:12.5px;color:var(--ink-2);white-space:nowrap}
.q-counts span{display:inline-flex;align-items:center;gap:6px}
.q-counts i{width:10px;height:10px;border-radius:3px;display:inline-block}
i.lvl-specific{background:var(--good)}i.lvl-vague{background:#f59e0b}i.lvl-none{background:#cbd5e1}
.lvl-text-none{color:var(--muted)}.lvl-text-vague{color:var(--fair)}.lvl-text-specific{color:var(--good)}
.checklist{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:1fr 1fr;gap:10px}
.q{display:grid;grid-template-columns:34px 1fr auto;gap:12px;align-items:start;border:1px solid var(--line);border-radius:10px;padding:11px 14px 11px 11px;background:#fff;break-inside:avoid;page-break-inside:avoid}
.q:target{outline:2px solid var(--accent);outline-offset:1px}
.q-letter{width:34px;height:34px;border-radius:8px;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:15px}
.lvl-specific .q-letter{background:var(--good-bg);color:var(--good)}
.lvl-vague .q-letter{background:var(--fair-bg);color:var(--fair)}
.lvl-none .q-letter{background:#f1f5f9;color:#94a3b8}
.lvl-none{background:#fcfcfd}
.q-name{display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 8px}
.q-name b{font-size:13.5px}
.q-name small{display:inline}
.lvl-none .q-name b{color:var(--ink-2)}
.q-quote{margin-top:4px;font-size:12.5px;color:var(--ink-2);display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 8px}
.q-quote .quote{color:var(--ink-2);flex-basis:100%}
.q-quote.na{font-size:12px}
.q-who{font-size:11.5px;color:var(--muted)}
.q-who small{font-size:11px}
.q-level{display:grid;grid-template-columns:auto auto;grid-template-rows:auto auto;column-gap:8px;align-items:center;justify-items:end;text-align:right}
.q-score{font-size:18px;font-weight:700;line-height:1}
.lvl-specific .q-score{color:var(--good)}.lvl-vague .q-score{color:var(--fair)}.lvl-none .q-score{color:#94a3b8}
.q-label{grid-column:1 / span 2;font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin-top:3px;white-space:nowrap}
.lvl-specific .q-label{color:var(--good)}.lvl-vague .q-label{color:var(--fair)}
.pips{display:inline-flex;gap:3px}
.pips i{width:14px;height:6px;border-radius:999px;background:#e2e8f0;display:inline-block}
.lvl-specific .pips i.on{background:var(--good)}.lvl-vague .pips i.on{background:#f59e0b}
.kind{display:inline-block;font-size:12px;font-weight:600;border-radius:6px;padding:1px 8px;background:#fff7ed;color:#c2410c;border:1px solid #fed7aa;white-space:nowrap}
.kind-competitor{background:#fdf4ff;color:#a21caf;border-color:#f5d0fe}
.kind-timing{background:#ecfeff;color:#0e7490;border-color:#a5f3fc}
.kind-authority{background:#f0f9ff;color:#0369a1;border-color:#bae6fd}
.kind-need{background:#f8fafc;color:#475569;border-color:var(--line-2)}
.badge-neutral{background:#f1f5f9;color:var(--ink-2)}
.objections td small,.next-steps td small{margin-top:3px}
.reply{margin-top:6px;font-size:12.5px;display:flex;flex-wrap:wrap;gap:2px 8px;align-items:baseline;padding-left:9px;border-left:3px solid #c7d2fe}
.reply .quote{color:var(--ink-2)}
.call-summary h3{margin:12px 0 6px;font-size:13px;font-weight:650;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.call-summary ul{list-style:none;margin:0;padding:0}
.sum-item{margin:0 0 10px}
.sum-text{font-weight:550}
.sum-risks .sum-text{color:var(--ink)}
.objections tr:target td,.next-steps tr:target td{background:#eef2ff}
.next-steps td b{font-weight:600}
.segments{list-style:none;margin:0;padding:0}
.seg{display:grid;grid-template-columns:56px 120px 1fr;gap:14px;padding:9px 6px;border-top:1px solid var(--line);break-inside:avoid;page-break-inside:avoid}
.seg:first-child{border-top:0}
.seg:target{background:#eef2ff;border-radius:8px}
.seg .ts{padding-top:2px}
.seg-who{display:flex;flex-direction:column;min-width:0}
.seg-who b{display:flex;align-items:center;gap:7px;font-size:13px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.seg-who b i{width:9px;height:9px;border-radius:50%;background:var(--c);flex:none;display:inline-block}
.seg-who small{padding-left:16px;font-size:11.5px}
.seg-text{border-left:3px solid var(--c);padding-left:12px;min-width:0}
.seg-text p{margin:0;color:var(--ink);overflow-wrap:anywhere}
.seg-rep .seg-text p{color:var(--ink-2)}
.tags{display:flex;flex-wrap:wrap;gap:5px;margin-top:6px}
.tag{font-size:11.5px;font-weight:600;border-radius:999px;padding:0 9px;line-height:20px;border:1px solid var(--line);background:#f8fafc;color:var(--ink-2)}
.tag:hover{text-decoration:none;border-color:var(--line-2)}
.tag-ev-pos{color:var(--good);background:var(--good-bg);border-color:#bbf7d0}
.tag-ev-neg{color:var(--poor);background:var(--poor-bg);border-color:#fecaca}
.tag-obj{color:#c2410c;background:#fff7ed;border-color:#fed7aa}
.tag-ns{color:#0369a1;background:#f0f9ff;border-color:#bae6fd}
.tag-q{color:var(--accent);background:#eef2ff;border-color:#c7d2fe}
.method p{margin:0 0 10px;color:var(--ink-2);font-size:13px}
.method h3{font-size:13px;margin:18px 0 6px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.method table{font-size:12.5px}
.method td,.method th{padding:7px 10px}
.version{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;background:#f1f5f9;border:1px solid var(--line);border-radius:6px;padding:1px 7px;font-size:12.5px;color:var(--ink)}
.flag{display:inline-block;background:var(--fair-bg);color:var(--fair);font-weight:600;border-radius:6px;padding:1px 8px;font-size:12.5px}
footer{color:var(--muted);font-size:12px;text-align:center;padding:0 0 32px}
@media (max-width:820px){.summary{grid-template-columns:1fr}.overall{flex-direction:row}.score-cell{width:24%}.checklist{grid-template-columns:1fr}.q-head{grid-template-columns:1fr}}
@media (max-width:600px){.seg{grid-template-columns:56px 1fr}.seg-text{grid-column:1 / -1}}
@media print{
  @page{margin:14mm 12mm}
  body{background:#fff;font-size:12px}
  .wrap{max-width:none;padding:0}
  .masthead{background:#fff;color:var(--ink);border-bottom:2px solid var(--ink);padding:0 0 12px;margin-bottom:14px}
  .masthead h1{color:var(--ink)}
  .masthead h1 .sub,.brand,.facts dt{color:var(--muted)}
  .facts dd{color:var(--ink)}
  .chip{background:#fff;border-color:var(--line-2);color:var(--ink)}
  .chip .role{color:var(--ink-2)}
  main.wrap{padding:0}
  .card{box-shadow:none;border-color:var(--line-2);break-inside:avoid;page-break-inside:avoid;padding:14px 16px;margin-bottom:12px}
  .card.allow-break{break-inside:auto;page-break-inside:auto}
  tr{break-inside:avoid;page-break-inside:avoid}
  .summary{grid-template-columns:1fr 1.3fr;gap:12px;margin-bottom:12px}
  a{color:inherit}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`
