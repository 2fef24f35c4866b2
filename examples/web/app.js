// The page: pick a space, watch its blocks arrive live, append a line. Served by the feed server
// at /ui/ (--http-ui examples/web), it talks to the same origin; ?server=URL points it elsewhere
// (that server must allow this page's origin with --http-cors-origin).
'use strict';

(() => {
  const params = new URLSearchParams(location.search);
  const server = (params.get('server') || location.origin).replace(/\/$/, '');
  const $ = id => document.getElementById(id);
  const blocks = $('blocks');
  let stop = null;
  let writer = null;

  function status(text) {
    $('status').textContent = text;
  }

  function show(block) {
    const item = document.createElement('li');
    item.dataset.position = block.position;
    const position = document.createElement('span');
    position.className = 'position';
    position.textContent = block.position;
    const actor = document.createElement('span');
    actor.className = 'actor';
    actor.textContent = block.actor_id;
    const text = document.createElement('span');
    text.className = 'data';
    text.textContent = Feed.fromBase64(block.data || '');
    item.append(position, actor, text);
    blocks.append(item);
    item.scrollIntoView({block: 'nearest'});
  }

  function watch() {
    if (stop) stop();
    blocks.replaceChildren();
    const space = $('space').value;
    const token = $('token').value || null;
    sessionStorage.setItem('feedstore:token', $('token').value);
    history.replaceState(null, '', '?' + new URLSearchParams({...Object.fromEntries(params), space}));
    writer = Feed.writer({server, space, token});
    stop = Feed.follow({server, space, token, onBlock: show, onStatus: status,
      onReset: () => {
        blocks.replaceChildren();
        status('the server\'s store was replaced: showing it from the start');
      }});
  }

  let stopLive = null;

  function showRows(rows) {
    $('rows').tBodies[0].replaceChildren(...rows.map(row => {
      const line = document.createElement('tr');
      line.dataset.key = JSON.stringify(row.key);
      for (const text of [JSON.stringify(row.key), row.position, JSON.stringify(row.content)]) {
        const cell = document.createElement('td');
        cell.textContent = text;
        line.append(cell);
      }
      return line;
    }));
  }

  $('query').addEventListener('submit', event => {
    event.preventDefault();
    if (stopLive) stopLive();
    showRows([]);
    stopLive = LiveQuery.follow({server, space: $('space').value, token: $('token').value || null,
      query: $('q').value, onRows: showRows, onStatus: text => { $('live-status').textContent = text; }});
  });

  $('connect').addEventListener('submit', event => {
    event.preventDefault();
    watch();
  });

  $('append').addEventListener('submit', async event => {
    event.preventDefault();
    const line = $('line');
    try {
      const position = await writer.append(line.value);
      $('appended').textContent = 'appended at position ' + position;
      line.value = '';
    } catch (e) {
      $('appended').textContent = 'not appended: ' + e.message;
    }
  });

  $('space').value = params.get('space') || $('space').value;
  $('token').value = sessionStorage.getItem('feedstore:token') || '';
  watch();
})();
