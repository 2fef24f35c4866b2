// A small client of the feed server's HTTP API, for pages: follow a space as Server-Sent Events
// (read with fetch, so that it can send an Authorization header), resuming by itself, and append
// lines to a feed of the page's own. No build step, no dependency.
'use strict';

const Feed = (() => {
  const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

  /** A new ULID: 48 bits of milliseconds, 80 random bits, 26 characters of Crockford base32. */
  function ulid() {
    let time = Date.now();
    const chars = [];
    for (let i = 0; i < 10; i++) {
      chars.unshift(CROCKFORD[time % 32]);
      time = Math.floor(time / 32);
    }
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      chars.push(CROCKFORD[byte % 32]);
    }
    return chars.join('');
  }

  function toBase64(text) {
    let binary = '';
    for (const byte of new TextEncoder().encode(text)) {
      binary += String.fromCharCode(byte);
    }
    return btoa(binary);
  }

  function fromBase64(data) {
    return new TextDecoder().decode(Uint8Array.from(atob(data), c => c.charCodeAt(0)));
  }

  const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

  /**
   * Follows a space: calls onBlock once per block, in position order, across reconnects (it resumes
   * after the last position it handed over, and ignores anything at or below it); onReset when the
   * server's store was replaced (drop what you show: the blocks come again from the start); onStatus
   * with a line for people. Returns a function that stops following.
   */
  function follow({server, space, token, onBlock, onReset, onStatus}) {
    let last = 0;
    let serverToken = null;
    let stopped = false;
    let controller = null;
    let delay = 500;

    function handle(event) {
      const data = JSON.parse(event.data);
      switch (event.name) {
        case 'server-token':
          serverToken = data.server_token;
          break;
        case 'reset':
          last = 0;
          serverToken = data.server_token;
          onReset();
          break;
        case 'caught-up':
          delay = 500;
          onStatus('live: up to position ' + data.max_position);
          break;
        case 'auth':
          throw new Error('the access token was refused or expired: ' + data.message);
        case 'error':
          throw new Error(data.code + ': ' + data.message);
        default:
          if (data.position > last) {
            last = data.position;
            onBlock(data);
          }
      }
    }

    async function stream() {
      const headers = {};
      if (token) headers['Authorization'] = 'Bearer ' + token;
      if (last > 0) headers['Last-Event-ID'] = String(last);
      if (serverToken) headers['Feed-Server-Token'] = serverToken;
      controller = new AbortController();
      const response = await fetch(server + '/v1/spaces/' + encodeURIComponent(space) + '/events',
          {headers, signal: controller.signal, cache: 'no-store'});
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        throw new Error(response.status + ' ' + (body.code || '') + ': ' + (body.message || ''));
      }
      onStatus(last > 0 ? 'resuming after position ' + last : 'catching up');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      let event = {name: 'message', data: null};
      for (;;) {
        const {value, done} = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, end).replace(/\r$/, '');
          buffer = buffer.slice(end + 1);
          if (line === '') {
            if (event.data !== null) handle(event);
            event = {name: 'message', data: null};
          } else if (!line.startsWith(':')) { // lines starting with a colon are heartbeats
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') event.name = text;
            if (field === 'data') event.data = event.data === null ? text : event.data + '\n' + text;
          }
        }
      }
    }

    (async () => {
      while (!stopped) {
        try {
          await stream();
          if (!stopped) onStatus('the server ended the stream; reconnecting');
        } catch (e) {
          if (stopped) return;
          onStatus('reconnecting in ' + delay + ' ms: ' + e.message);
        }
        await sleep(delay);
        delay = Math.min(delay * 2, 5000);
      }
    })();
    return () => {
      stopped = true;
      if (controller) controller.abort();
    };
  }

  /**
   * Appends lines to one feed of the page's own in a space: its id, the next sequence and the
   * predecessor are kept in localStorage, so a reload goes on where it was. A sequence another tab
   * took (409) is skipped and the line is sent again.
   */
  function writer({server, space, token}) {
    const key = 'feedstore:' + server + ':' + space;
    const saved = JSON.parse(localStorage.getItem(key) || 'null') || {feed: ulid(), actor: 'web-' + ulid().slice(-8),
      next: 0};
    const save = () => localStorage.setItem(key, JSON.stringify(saved));
    save();

    async function append(text) {
      for (let attempt = 0; attempt < 10; attempt++) {
        const block = {actor_id: saved.actor, sequence: saved.next, timestamp: Date.now(), data: toBase64(text)};
        if (saved.next > 0) {
          block.prev_actor_id = saved.actor;
          block.prev_sequence = saved.next - 1;
        }
        const headers = {'Content-Type': 'application/json'};
        if (token) headers['Authorization'] = 'Bearer ' + token;
        const response = await fetch(server + '/v1/spaces/' + encodeURIComponent(space) + '/feeds/' + saved.feed
            + '/blocks', {method: 'POST', headers, body: JSON.stringify({namespace: 'web', blocks: [block]})});
        const body = await response.json().catch(() => ({}));
        if (response.ok) {
          saved.next++;
          save();
          return body.positions[0];
        }
        if (response.status === 409) {
          saved.next++; // that sequence holds another line already
          save();
          continue;
        }
        throw new Error(response.status + ' ' + (body.code || '') + ': ' + (body.message || ''));
      }
      throw new Error('gave up after 10 sequence conflicts');
    }

    return {feed: saved.feed, actor: saved.actor, append};
  }

  return {follow, writer, fromBase64, ulid};
})();
