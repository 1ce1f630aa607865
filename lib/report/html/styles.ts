// The page's CSS, inline so the report opens offline. Class colours come from
// colors.ts, the single palette shared with the terminal and Markdown views.
import { CLASS_ORDER, CLASS_STYLES } from '../colors';

function classRules(): string {
  return CLASS_ORDER.map((c) => {
    const hex = CLASS_STYLES[c].hex;
    return [
      `[data-class="${c}"]{--c:${hex}}`,
      `.mark[data-class="${c}"]{fill:${hex}}`,
      `.loop-band[data-class="${c}"]{fill:${hex}1f;stroke:${hex}}`,
    ].join('\n');
  }).join('\n');
}

export function reportCss(): string {
  return `
:root{--bg:#f5f6f8;--card:#fff;--ink:#1f2430;--muted:#5f6878;--line:#e3e6eb;--soft:#f0f2f5;--accent:#2563eb;
--bad:#b91c1c;--bad-bg:#fde8e8;--good:#15803d;--good-bg:#e3f5e8;--na-bg:#eceef2;
font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
font-size:14px;line-height:1.45;color:var(--ink);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--bg:#14161b;--card:#1c1f26;--ink:#e6e8ec;--muted:#9aa3b2;--line:#2c313b;
--soft:#232730;--bad:#f87171;--bad-bg:#3a1d1d;--good:#4ade80;--good-bg:#173022;--na-bg:#2a2e37}}
*{box-sizing:border-box}
body{margin:0;padding:20px 24px 48px}
main{max-width:1880px;margin:0 auto}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
h1{font-size:22px;margin:0;font-weight:650;letter-spacing:-.01em}
h2{font-size:16px;margin:0 0 10px;font-weight:650}
.sub{color:var(--muted);margin-top:2px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin-top:14px}
header.card{display:flex;flex-wrap:wrap;gap:14px 28px;align-items:flex-end;justify-content:space-between}
.stats{display:flex;gap:10px;flex-wrap:wrap}
.stat{background:var(--soft);border-radius:8px;padding:6px 12px;min-width:92px}
.stat b{display:block;font-size:20px;font-weight:650}
.stat span{color:var(--muted);font-size:12px}
.stat.alert b{color:var(--bad)}
.meta{color:var(--muted);font-size:12.5px;width:100%;display:flex;flex-wrap:wrap;gap:4px 18px}
.meta code{color:var(--ink)}
.legend{display:flex;flex-wrap:wrap;gap:6px 8px;margin-bottom:10px}
.chip{display:inline-flex;align-items:center;gap:6px;border:1px solid var(--line);border-radius:999px;padding:2px 10px 2px 8px;
background:var(--card);color:var(--ink);font:inherit;font-size:12.5px;white-space:nowrap}
button.chip{cursor:pointer}
button.chip:hover,button.chip[aria-pressed="true"]{border-color:var(--c,var(--accent));box-shadow:0 0 0 1px var(--c,var(--accent)) inset}
.chip.zero{opacity:.45}
.dot{width:10px;height:10px;border-radius:50%;background:var(--c,#6b7280);flex:none}
.chip .n{color:var(--muted)}
.tl{max-width:1500px}
.timeline,.timeline-more,.timeline-axis{width:100%;height:auto;display:block}
.tl-axis{position:sticky;top:0;z-index:2;background:var(--card)}
.axis-bg{fill:var(--card)}
details.more-fights>summary{cursor:pointer;color:var(--muted);padding:6px 10px;font-size:12.5px}
.row-bg{fill:transparent}.row-bg.odd{fill:var(--soft)}
.row-label{font-size:12.5px;fill:var(--ink);cursor:pointer}
.row-label:hover{fill:var(--accent);text-decoration:underline}
.row-label .ns{fill:var(--muted)}.row-label .id{font-weight:650}
.grid{stroke:var(--line);stroke-width:1}
.axis-line{stroke:var(--muted);stroke-width:1}
.tick{font-size:11px;fill:var(--muted);text-anchor:middle}
.tick.date{font-weight:600}
.axis-caption{font-size:11px;fill:var(--muted);text-anchor:end}
.mark{fill:#6b7280;stroke:var(--card);stroke-width:1.5;cursor:pointer}
.mark:hover,.mark.hl{stroke:var(--ink);stroke-width:2}
.loop-band{fill:#6b72801f;stroke:#6b7280;stroke-width:1.2;cursor:pointer}
.loop-band[data-active="true"]{stroke-dasharray:5 3;stroke-width:1.8}
.loop-label{font-size:10.5px;font-weight:600;fill:var(--ink);pointer-events:none;paint-order:stroke;stroke:var(--card);stroke-width:3px;stroke-linejoin:round}
.loop-span{fill:none;stroke:var(--muted);stroke-width:1;pointer-events:none}
.fight-band{fill:#7c3aed1f;stroke:#7c3aed;stroke-width:1.2}
.fight-band[data-kind="field-fight"]{fill:#0e74901f;stroke:#0e7490}
.fight-band[data-kind="hot-loop"]{fill:#b453091f;stroke:#b45309}
.fight-band[data-active="true"]{stroke-dasharray:5 3;stroke-width:1.8}
.drift-mark{fill:#f59e0b;stroke:var(--ink);stroke-width:1}
.drift-mark[data-severity="tamper"]{fill:#dc2626}
.drift-mark[data-stands="false"]{fill-opacity:.45}
table.drifts td{vertical-align:top}
.empty{font-size:13px;fill:var(--muted);text-anchor:middle}
.tip{position:fixed;z-index:10;pointer-events:none;background:var(--ink);color:var(--bg);border-radius:6px;
padding:6px 9px;font-size:12px;max-width:420px;box-shadow:0 4px 14px #0003;display:none}
.tip b{font-weight:650}
table{border-collapse:collapse;width:100%}
th{font-size:11.5px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600;text-align:left}
th,td{padding:7px 10px;border-bottom:1px solid var(--line);vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td code{display:block}
.nowrap{white-space:nowrap}
h3{font-size:13px;margin:14px 0 6px;font-weight:650;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
h3 .muted{text-transform:none;letter-spacing:0;font-weight:400}
.advice{border:1px solid var(--line);border-left:4px solid var(--c,#6b7280);border-radius:8px;padding:8px 12px;margin:8px 0;min-width:0}
.advice-head{display:flex;flex-wrap:wrap;align-items:center;gap:4px 10px;font-size:12.5px}
.advice-n,.advice-ref{display:inline-flex;align-items:center;justify-content:center;min-width:20px;height:20px;border-radius:10px;
background:var(--ink);color:var(--card);font-size:11.5px;font-weight:650;padding:0 6px;text-decoration:none}
.recommendation{margin:6px 0 2px;max-width:110ch;overflow-wrap:anywhere}
.broker-list{border-top:1px solid var(--line)}
details.broker-loops{border-bottom:1px solid var(--line)}
details.broker-loops>summary{display:grid;grid-template-columns:minmax(180px,1fr) 190px 250px 170px 170px 64px;
gap:4px 12px;align-items:center;padding:8px 10px 8px 26px;cursor:pointer;list-style:none;position:relative}
@media (max-width:1100px){details.broker-loops>summary{display:flex;flex-wrap:wrap}}
details.broker-loops>summary::-webkit-details-marker{display:none}
details.broker-loops>summary::before{content:"▸";position:absolute;left:8px;color:var(--muted)}
details.broker-loops[open]>summary::before{content:"▾"}
details.broker-loops>summary:hover,details.broker-loops[open]>summary{background:var(--soft)}
.bl-broker{font-weight:650;min-width:0;overflow-wrap:anywhere}
.bl-class{display:inline-flex;gap:4px;flex-wrap:wrap}
.bl-count small,.bl-when small,.bl-state small{display:block;color:var(--muted);font-size:12px}
.bl-when{font-variant-numeric:tabular-nums}
.bl-advice{color:var(--muted);font-size:12.5px;white-space:nowrap;text-align:right}
.bl-body{padding:6px 12px 12px 26px}
.bl-facts{display:flex;flex-wrap:wrap;gap:6px 28px;margin-bottom:8px;min-width:0}
.bl-facts>div{min-width:0;max-width:100%}
.bl-facts code{display:block;overflow-wrap:anywhere}
table.runs{width:auto;min-width:50%}
table.runs td,table.runs th{padding:4px 10px}
table.runs code{overflow-wrap:anywhere}
.banner{border-radius:8px;padding:8px 12px;width:100%;font-size:13px;border:1px solid var(--line);background:var(--soft);overflow-wrap:anywhere}
.banner ul{margin:4px 0 0;padding-left:20px}
.banner code{color:var(--ink)}
.banner.bad{background:var(--bad-bg);border-color:var(--bad);color:var(--ink)}
.banner.bad>b{color:var(--bad)}
.banner.warn{background:#fef3c7;border-color:#d97706;color:#1f2430}
.banner details>summary{cursor:pointer;color:var(--muted)}
.read{width:100%;font-size:12.5px}
details.counts>summary{cursor:pointer;list-style:none;display:flex;gap:10px;align-items:baseline}
details.counts>summary h2{display:inline;margin:0}
details.counts[open]>summary{margin-bottom:10px}
.scroll{overflow-x:auto}
#what-to-do h2 .muted{font-weight:400;font-size:12.5px}
details.fix-impact-brokers>summary{cursor:pointer;color:var(--muted);padding:4px 0}
details.more-advice>summary{cursor:pointer;color:var(--muted);padding:4px 0}
.chip.kind{border-color:var(--k,#7c3aed)}
[data-kind="recreate-loop"]{--k:#7c3aed}[data-kind="field-fight"]{--k:#0e7490}[data-kind="hot-loop"]{--k:#b45309}
.advice[data-kind]{border-left-color:var(--k)}
.fight-head,details.fight>summary{display:grid;grid-template-columns:120px minmax(160px,1.2fr) minmax(160px,1fr) 90px 170px 64px 76px;gap:4px 12px}
.fight-head{padding:6px 10px 6px 26px;font-size:11.5px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600;border-bottom:1px solid var(--line)}
@media (max-width:900px){.fight-head{display:none}details.fight>summary{display:flex;flex-wrap:wrap}}
details.fight{border-bottom:1px solid var(--line)}
details.fight>summary{align-items:start;padding:8px 10px 8px 26px;cursor:pointer;list-style:none;position:relative}
details.fight>summary::-webkit-details-marker{display:none}
details.fight>summary::before{content:"▸";position:absolute;left:8px;top:9px;color:var(--muted)}
details.fight[open]>summary::before{content:"▾"}
details.fight>summary:hover,details.fight[open]>summary{background:var(--soft)}
details.fight>summary>span{min-width:0}
details.fight code{display:block;overflow-wrap:anywhere}
.f-count small,.f-when small{display:block;color:var(--muted);font-size:12px}
.f-when{font-variant-numeric:tabular-nums}
.f-advice{color:var(--muted);font-size:12.5px;white-space:nowrap;text-align:right}
.f-body{padding:6px 12px 12px 26px}
.f-fields{display:flex;flex-wrap:wrap;gap:4px 12px;min-width:0}
.f-fields>.muted{flex:none}
.badge{display:inline-block;border-radius:5px;padding:1px 7px;font-size:12px;font-weight:600;white-space:nowrap}
.badge.active{background:var(--bad-bg);color:var(--bad)}
.badge.ended{background:var(--na-bg);color:var(--muted)}
.rec-tools{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:8px}
.rec-tools select,.rec-tools input{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--ink)}
.rec-tools input{min-width:260px}
.pager{display:flex;gap:6px;align-items:center;margin-left:auto;color:var(--muted)}
.pager button{font:inherit;padding:3px 10px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--ink);cursor:pointer}
.pager button:disabled{opacity:.4;cursor:default}
.rec-head{display:grid;grid-template-columns:150px minmax(180px,.45fr) minmax(0,1fr) 200px 110px;gap:10px;padding:6px 10px;
font-size:11.5px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600;border-bottom:1px solid var(--line)}
details.rec{border-bottom:1px solid var(--line)}
details.rec>summary{display:grid;grid-template-columns:150px minmax(180px,.45fr) minmax(0,1fr) 200px 110px;gap:10px;padding:7px 10px;
cursor:pointer;list-style:none;align-items:center}
details.rec>summary::-webkit-details-marker{display:none}
details.rec>summary:hover{background:var(--soft)}
details.rec[open]>summary{background:var(--soft)}
details.rec.flash>summary{animation:flash 1.6s}
@keyframes flash{from{background:#fde68a}}
.ellip{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.pods .arrow{color:var(--muted);padding:0 4px}
.nfields{color:var(--muted);font-size:12.5px}
.rec-body{padding:6px 12px 14px 30px}
.verdicts{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0 10px}
.verdict{border-radius:6px;padding:3px 9px;font-size:12.5px;background:var(--na-bg)}
.verdict.restart{background:var(--bad-bg);color:var(--bad)}
.verdict.no-restart{background:var(--good-bg);color:var(--good)}
.diff td{font-size:12.5px}
.diff code{overflow-wrap:anywhere}
.diff pre{margin:4px 0 0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:220px;overflow:auto}
.diff pre.from{color:var(--bad)}.diff pre.to{color:var(--good)}
code.chg{display:block;overflow-wrap:anywhere;white-space:pre-wrap;padding:1px 4px;border-radius:4px}
code.chg.add{background:var(--good-bg);color:var(--good)}code.chg.remove{background:var(--bad-bg);color:var(--bad)}
code.chg.mod{background:var(--na-bg)}
details.whole>summary{cursor:pointer;color:var(--muted);font-size:12px;margin-top:4px}
.evidence,.who{color:var(--muted);font-size:12.5px;margin-top:8px}
.who{margin:2px 0 0}.who code{color:var(--ink)}
.muted{color:var(--muted)}
dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:4px 18px;margin:0}
dl.summary dt{color:var(--muted)}dl.summary dd{margin:0;word-break:break-all}
footer{color:var(--muted);font-size:12px;margin-top:14px;text-align:center}
${classRules()}
`.trim();
}
