// The live query panel: a query's rows, then their changes, over Server-Sent Events from
// /v1/spaces/{space}/live. The browser's EventSource reconnects by itself and sends the last
// event's id (a resume token) as Last-Event-ID, so the server continues with the changes after it.
'use strict';

const LiveQuery = (() => {
  // Follows `query` in `space`; calls onRows(rows in key order) after each change, onStatus(text).
  function follow({server, space, token, query, onRows, onStatus}) {
    const params = new URLSearchParams({q: query});
    if (token) params.set('access_token', token); // EventSource sends no headers
    const source = new EventSource(server + '/v1/spaces/' + encodeURIComponent(space) + '/live?' + params);
    const rows = new Map(); // document key (as JSON) -> row
    const show = () => onRows([...rows.values()].sort((a, b) => compareKeys(a.key, b.key)));
    const on = (name, handle) => source.addEventListener(name, event => handle(JSON.parse(event.data)));
    on('ack', ack => {
      if (!ack.resumed) rows.clear(); // a snapshot follows
      onStatus((ack.resumed ? 'resumed' : 'loading') + ' at position ' + ack.position);
    });
    on('reset', reset => {
      rows.clear();
      onStatus('reset: ' + reset.reason);
    });
    on('snapshot', snapshot => snapshot.rows.forEach(row => rows.set(JSON.stringify(row.key), row)));
    on('ready', ready => {
      show();
      onStatus('live at position ' + ready.position);
    });
    on('changes', changes => {
      changes.left.forEach(row => rows.delete(JSON.stringify(row.key)));
      changes.updated.forEach(update => rows.set(JSON.stringify(update.current.key), update.current));
      changes.entered.forEach(row => rows.set(JSON.stringify(row.key), row));
      show();
      onStatus('live at position ' + changes.position);
    });
    source.addEventListener('error', event => {
      if (event.data) { // the server's refusal: it will not serve this query
        source.close();
        onStatus('refused: ' + JSON.parse(event.data).message);
      } else {
        onStatus('reconnecting…');
      }
    });
    return () => source.close();
  }

  // Integer keys before string keys, as the server orders them.
  function compareKeys(a, b) {
    if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  return {follow};
})();
