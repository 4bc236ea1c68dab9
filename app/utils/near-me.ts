/**
 * "Use my location" on the calendar: the one script the calendar page runs, inline and allowed by its hash (the page
 * stays cacheable, see security.server.ts). Without JavaScript or geolocation the button stays hidden and the ZIP
 * field does the same job. The position is sent in a POST body, never in a URL (a visitor's location is personal
 * data), and the server answers with the calendar near the closest ZIP code.
 *
 * Markup: a `hidden` button carrying NEAR_ME_PROPS inside the filters form; a `hidden` message carrying
 * NEAR_ME_ERROR_PROPS, shown when the browser gives no position. The script must come after both.
 */
export const NEAR_ME_PROPS = { 'data-near-me': '' } as const
export const NEAR_ME_ERROR_PROPS = { 'data-near-me-error': '' } as const
export const NEAR_ME_LAT = 'lat'
export const NEAR_ME_LNG = 'lng'

const button = Object.keys(NEAR_ME_PROPS)[0]!
const error = Object.keys(NEAR_ME_ERROR_PROPS)[0]!

export const NEAR_ME_SCRIPT = `(function(){var b=document.querySelector("[${button}]"),m=document.querySelector("[${error}]");if(!b||!b.form||!navigator.geolocation)return;b.hidden=false;b.addEventListener("click",function(){var f=b.form;b.disabled=true;if(m)m.hidden=true;navigator.geolocation.getCurrentPosition(function(p){var g=document.createElement("form"),q=new URLSearchParams(new FormData(f));q.delete("near");g.method="post";g.action=f.getAttribute("action")+"?"+q;[["${NEAR_ME_LAT}",p.coords.latitude],["${NEAR_ME_LNG}",p.coords.longitude]].forEach(function(v){var i=document.createElement("input");i.type="hidden";i.name=v[0];i.value=v[1].toFixed(4);g.appendChild(i)});document.body.appendChild(g);g.submit()},function(){b.disabled=false;if(m)m.hidden=false},{timeout:15000,maximumAge:600000})})})()`
