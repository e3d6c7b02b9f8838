/*
 * The hosted Link modal. It waits for the SDK to hand it the link token,
 * then walks the user through search, provider confirmation, login (with
 * MFA), the allocation and its confirmation, and reports every step to the
 * parent page as the spec's client events (SDK v3 payloads).
 */
(function () {
  'use strict';

  var state = {
    token: null, parentOrigin: null, session: null,
    employer: null, platform: null, accountId: null,
    allocation: null, lastError: null, screen: null, history: [], username: ''
  };
  var $ = function (id) { return document.getElementById(id); };
  // parts joins the modal's files: this one's helpers for the screens kept
  // in files of their own (upload.js, handoff.js), and their screens for
  // this one. Only Link's own page has it.
  var parts = window.PaylineModal = {};

  // --- events -------------------------------------------------------------

  function emit(name, payload) {
    if (!state.parentOrigin) return;
    window.parent.postMessage({ type: 'payline:event', name: name, payload: payload || {} }, state.parentOrigin);
  }

  function transition(name, render) {
    var payload = { screen_name: name };
    if (name === 'LOGIN') {
      if (state.employer) {
        payload.selectedEmployerId = state.employer.id;
        payload.selectedEmployerName = state.employer.name;
      }
      if (state.platform) {
        payload.selectedPlatformId = state.platform.id;
        payload.selectedPlatformName = state.platform.name;
      }
    }
    if (state.screen !== name) emit('screen_transition', payload);
    if (name !== 'EXIT_CONFIRMATION') {
      var top = state.history[state.history.length - 1];
      if (!top || top.name !== name) state.history.push({ name: name, render: render });
      else top.render = render;
    }
    state.screen = name;
    showMessage('');
    render();
    updateBack();
  }

  // Screens the user may step back from: everything before a submission
  // (a login or a switch). Back returns to the screen before, which is
  // shown (and reported) again.
  var BACKABLE = { PROVIDER_CONFIRMATION: true, SEARCH_PLATFORM_ONLY: true, LOGIN: true, DD_CONFIRMATION: true };

  function canGoBack() {
    var h = state.history;
    if (!BACKABLE[state.screen] || h.length < 2 || state.mfa) return false;
    var prev = h[h.length - 2].name;
    return prev !== 'JOB_SUCCESS' && prev !== 'JOB_ERROR' && !(state.screen === 'LOGIN' && state.accountId);
  }

  function updateBack() {
    $('back').hidden = !canGoBack();
    parts.updateHandoff();
  }

  function goBack() {
    if (!canGoBack()) return;
    state.history.pop();
    var prev = state.history[state.history.length - 1];
    transition(prev.name, prev.render);
  }

  function linkError(err, pendingRetry) {
    return {
      type: err.type || 'UNKNOWN_ERROR', code: err.code || 'UNKNOWN_ERROR',
      message: err.message || 'Something went wrong.', pendingRetry: !!(pendingRetry || err.pending_retry)
    };
  }

  function fail(err, pendingRetry) {
    state.lastError = linkError(err, pendingRetry);
    emit('error', state.lastError);
    return state.lastError;
  }

  // words for the end user; the developer detail stays in the events
  function userMessage(e) {
    var org = (state.session && state.session.org_name) || 'the company that sent you here';
    var provider = (state.platform && state.platform.name) || 'your payroll provider';
    switch (e.code) {
      case 'INVALID_CREDENTIALS': return 'That username and password did not work. Check them and try again.';
      case 'INVALID_MFA_CODE': return 'That code did not work. Check the newest code you received and try again.';
      case 'ACCOUNT_LOCKED': return 'Your ' + provider + ' account is locked. Unlock it with ' + provider + ', then try again.';
      case 'LINK_TOKEN_INVALID': case 'LINK_TOKEN_EXPIRED': case 'LINK_TOKEN_USED':
        return 'This link has expired or was already used. Go back to ' + org + ' and start again.';
      // a hand-off's QR code, on the phone
      case 'LINK_HANDOFF_EXPIRED':
        return 'This code has expired. On your computer, choose "Continue on your phone" again for a new code.';
      case 'LINK_HANDOFF_INVALID':
        return 'This code was already used or is not complete. On your computer, choose "Continue on your phone" again for a new code.';
      case 'PLATFORM_UNAVAILABLE': return provider + ' is not responding right now. Try again in a few minutes.';
      // the connector (or upstream) that reaches the provider is away: the
      // same words, and the form stays for another try
      case 'UPSTREAM_UNAVAILABLE': return provider + ' is not responding right now. Try again in a moment.';
      case 'UNSUPPORTED_JOBS': return provider + ' cannot do what ' + org + ' asked for. Try another payroll provider.';
      case 'NETWORK_ERROR': return 'We could not reach Payline. Check your connection and try again.';
      case 'REQUEST_TOO_LARGE': return 'Each file can be at most 10 MB. Choose smaller files and try again.';
      case 'UPLOAD_TOO_LARGE_INFLATED': return 'One of the PDFs holds more than we can read. Upload fewer pages per file and try again.';
      case 'UPLOAD_TOO_SLOW_TO_READ': return 'These files took too long to read. Upload fewer files at a time and try again.';
      case 'UNSUPPORTED_CONTENT_TYPE': return 'We could not read what was sent. Choose the files again.';
    }
    if (state.screen === 'DOC_UPLOAD') {
      switch (e.code) {
        // too many documents read at once, on this server or with this
        // link: the developer detail is in the error event
        case 'DOCUMENTS_BUSY': case 'TOO_MANY_CONCURRENT_REQUESTS': case 'SERVER_BUSY': case 'TOO_MANY_CONCURRENT_FROM_ADDRESS':
          return "We're busy reading documents right now. Try again in a minute.";
        case 'RATE_LIMIT_EXCEEDED': return "You've checked files many times in a short while. Wait a minute, then choose them again.";
      }
    }
    if (state.screen === 'DOC_UPLOAD' && e.code === 'INVALID_FIELDS') {
      return 'We can take up to 10 PDF, PNG or JPEG files of 10 MB each. Check the files and try again.';
    }
    if (e.pendingRetry) return provider + ' is still processing your request. It can take a day or two; ' + org + ' will let you know.';
    if (e.type === 'JOB_ERROR' || e.type === 'PLATFORM_ERROR' || /JOB/.test(e.code || '')) {
      return 'We could not finish with ' + provider + '. Nothing was changed. Try again later, or contact ' + org + '.';
    }
    return 'Something went wrong on our side. Try again in a few minutes.';
  }

  function exit() {
    emit('exit', state.lastError || {});
  }

  // --- API ----------------------------------------------------------------

  // api calls Link's API with the session's token; signal (an
  // AbortController's) may cancel the call.
  function api(method, path, body, signal) {
    var opts = { method: method, headers: { 'Authorization': 'Bearer ' + state.token }, signal: signal };
    if (body instanceof FormData) {
      opts.body = body; // the browser sets the multipart Content-Type
    } else if (body) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    return fetch('/link/v1/api/' + path, opts).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (data) {
        if (!res.ok) throw (data && data.error) || { type: 'UNKNOWN_ERROR', code: 'UNKNOWN_ERROR', message: 'Payline is unavailable; try again.' };
        return data;
      });
    }, function () {
      throw { type: 'NETWORK_ERROR', code: 'NETWORK_ERROR', message: 'Could not reach Payline; check your connection.' };
    });
  }

  // --- rendering ----------------------------------------------------------

  function h(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] === null || attrs[k] === undefined) return;
      if (k === 'onclick' || k === 'oninput' || k === 'onsubmit') node[k] = attrs[k];
      else if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function screen(title, subtitle, children) {
    $('title').textContent = title;
    $('subtitle').textContent = subtitle || '';
    var s = $('screen');
    s.innerHTML = '';
    children.forEach(function (c) { if (c) s.appendChild(c); });
    // Focus the first field, else the main action, else the title, so a
    // keyboard or screen reader user starts where the screen does.
    var visible = function (el) { return el.offsetParent !== null && !el.disabled; };
    // (An optional field, such as the receipt's address on the last
    // screen, is not where the screen starts: its main action is.)
    var first = Array.prototype.filter.call(s.querySelectorAll('input:not([data-optional]), select'), visible)[0] ||
      Array.prototype.filter.call(s.querySelectorAll('button.primary'), visible)[0];
    (first || $('title')).focus();
  }

  function showMessage(text) {
    var m = $('message');
    m.textContent = text;
    m.hidden = !text;
  }

  var currency = new Intl.NumberFormat(navigator.language || 'en-US', { style: 'currency', currency: 'USD' });
  function money(v) { return currency.format(Number(v)); }

  // logo shows the directory's logo when it is served by Payline itself,
  // else a monogram in a colour fixed by the name.
  function logo(name, url) {
    if (url && url.charAt(0) === '/') return h('img', { 'class': 'logo', src: url, alt: '' });
    var words = String(name || '?').replace(/[^A-Za-z0-9 ]/g, ' ').trim().split(/\s+/);
    var initials = (words[0] || '?').charAt(0) + (words[1] ? words[1].charAt(0) : '');
    var hash = 0;
    for (var i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
    var m = h('span', { 'class': 'logo', 'aria-hidden': 'true', text: initials.toUpperCase() });
    m.style.backgroundColor = 'hsl(' + (hash % 360) + ', 55%, 42%)';
    return m;
  }

  // --- start ----------------------------------------------------------------

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || !event.data || event.data.type !== 'payline:init' || state.token || state.claiming) return;
    state.sdkVersion = event.data.sdkVersion || 3;
    state.parentOrigin = event.origin;
    // A phone opening a hand-off's QR code has its code, not a token.
    if (event.data.handoffCode) return parts.claim(event.data.handoffCode);
    state.token = event.data.linkToken;
    start();
  });
  // Ready once every part of the modal has loaded (upload.js, handoff.js).
  document.addEventListener('DOMContentLoaded', function () { window.parent.postMessage({ type: 'payline:ready' }, '*'); });

  $('back').onclick = goBack;
  $('handoff').onclick = function () { parts.startHandoff(state.screen, state.history[state.history.length - 1]); };
  $('close').onclick = function () {
    if (state.screen === 'JOB_SUCCESS' || state.screen === 'JOB_ERROR' || !state.session) return exit();
    transition('EXIT_CONFIRMATION', renderExitConfirmation);
  };

  function start() {
    api('GET', 'session').then(function (s) {
      state.session = s;
      $('org').textContent = s.org_name;
      $('mode-badge').textContent = s.mode === 'production' ? '' : s.mode;
      if (s.platform_matching && state.sdkVersion < 3) {
        // The spec: platform matching requires Link SDK 3.0 or later.
        var e = fail({ type: 'INVALID_REQUEST', code: 'SDK_VERSION_UNSUPPORTED',
          message: 'platform matching needs Link SDK 3 or later: open Link with sdkVersion 3' });
        state.screen = 'JOB_ERROR';
        return screen('Link cannot start', userMessage(e), [h('button', { id: 'done', 'class': 'primary', text: 'Close', onclick: exit })]);
      }
      if (s.upstream) return openUpstream(s.upstream);
      emit('open', {});
      if (state.resume) return parts.resume();
      if (s.skip_intro_screen) return begin();
      renderConsent();
    }, function (err) {
      var e = fail(err);
      state.screen = 'JOB_ERROR';
      screen('Link cannot start', userMessage(e), [h('button', { id: 'done', 'class': 'primary', text: 'Close', onclick: exit })]);
    });
  }

  // openUpstream runs a relayed token's Link: the upstream's own SDK,
  // opened inside this modal with the upstream's token. The user types
  // credentials into the upstream's page only; its client events reach
  // the integrator unchanged in name and payload, and its exit closes
  // this modal too.
  function openUpstream(up) {
    state.screen = 'UPSTREAM';
    var failed = function () {
      var e = fail({ type: 'SERVICE_UNAVAILABLE', code: 'UPSTREAM_UNAVAILABLE',
        message: 'the upstream Link SDK at ' + up.sdk_url + ' could not be loaded' });
      state.screen = 'JOB_ERROR';
      screen('Link cannot start', userMessage(e), [h('button', { id: 'done', 'class': 'primary', text: 'Close', onclick: exit })]);
    };
    var script = document.createElement('script');
    script.src = up.sdk_url;
    script.onerror = failed;
    script.onload = function () {
      var sdk = window.PaylineLink || window.Pinwheel;
      if (!sdk || typeof sdk.open !== 'function') return failed();
      sdk.open({ linkToken: up.link_token, sdkVersion: state.sdkVersion, onEvent: function (name, payload) { emit(name, payload); } });
    };
    document.head.appendChild(script);
  }

  // What each job lets the organisation see or do, in the user's words.
  var SHARES = {
    direct_deposit_switch: 'Change where your paycheck is deposited, as you choose next',
    direct_deposit_payment: 'Change where your paycheck is deposited, as you choose next',
    identity: 'Your name, date of birth, address, email and phone, and the last four digits of your SSN',
    employment: 'Your employer, job title, and when you started',
    income: 'Your pay rate and how often you are paid',
    paystubs: 'Your paystubs: pay, taxes and deductions',
    direct_deposit_allocations: 'Where your paycheck is deposited today',
    tax_forms: 'Your W-2 tax forms',
    shifts: 'Your shifts and hours worked',
    bill_switch: 'Permission to change how you pay one bill, to the payment method you choose next',
    bill_cancellation: 'Permission to cancel one subscription, after you confirm it'
  };

  // The consent screen comes before anything else (unless the token skips
  // it); it sends no event, so the spec's event sequence is unchanged.
  function renderConsent() {
    var s = state.session;
    state.screen = 'CONSENT';
    var seen = {};
    var items = (s.jobs || []).map(function (j) { return SHARES[j]; }).filter(function (t) {
      if (!t || seen[t]) return false;
      seen[t] = true;
      return true;
    });
    if (!items.length) items = ['That your payroll account is connected'];
    var title = s.bill_job ? s.org_name + ' uses Payline to manage a bill for you' : s.org_name + ' uses Payline to connect your payroll account';
    screen(title, 'With your permission, ' + s.org_name + ' will get:', [
      h('ul', { 'class': 'shares', id: 'shares' }, items.map(function (t) { return h('li', { text: t }); })),
      h('p', { 'class': 'muted' }, [
        document.createTextNode('Your login goes to your payroll provider, never to ' + s.org_name + '. '),
        h('a', { id: 'privacy', href: s.privacy_url || '/link/v1/privacy', target: '_blank', rel: 'noopener', text: 'How Payline handles your data' })
      ]),
      h('button', { id: 'consent-continue', 'class': 'primary', text: 'Continue', onclick: begin })
    ]);
    updateBack();
  }

  function begin() {
    var s = state.session;
    if (s.platform) {
      state.platform = s.platform;
      state.employer = s.employer || null;
      if (!s.on_demand_update) {
        if (state.employer) emit('select_employer', { selectedEmployerId: state.employer.id, selectedEmployerName: state.employer.name });
        emit('select_platform', { selectedPlatformId: state.platform.id, selectedPlatformName: state.platform.name });
      }
      return transition('LOGIN', renderLogin);
    }
    if (s.platform_matching) return startMatching();
    if (s.bill_job) return transition('SEARCH_DEFAULT', renderMerchantSearch);
    transition('SEARCH_DEFAULT', renderSearch);
  }

  // renderMerchantSearch finds the company that bills the user: category
  // chips of the merchants that can make the token's change, and search
  // by name.
  function renderMerchantSearch() {
    var list = h('ul', { 'class': 'results', id: 'results' });
    var chips = h('div', { 'class': 'chips', id: 'categories', role: 'group', 'aria-label': 'Categories' });
    var input = h('input', { id: 'search-input', type: 'search', autocomplete: 'off', placeholder: 'Search for the company', 'aria-label': 'Search' });
    input.oninput = function () {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(function () { runSearch(input.value, list, true); }, 150);
    };
    function show(results) {
      list.innerHTML = '';
      results.forEach(function (r) { list.appendChild(resultItem(r, 'Company')); });
    }
    api('GET', 'merchants').then(function (data) {
      (data.categories || []).forEach(function (c) {
        var chip = h('button', { 'class': 'chip', 'data-category': c, 'aria-pressed': 'false', text: categoryName(c) });
        chip.onclick = function () {
          Array.prototype.forEach.call(chips.children, function (b) { b.setAttribute('aria-pressed', String(b === chip)); });
          api('GET', 'merchants?category=' + encodeURIComponent(c)).then(function (d) {
            if (state.screen !== 'SEARCH_RESULTS') {
              emit('screen_transition', { screen_name: 'SEARCH_RESULTS' });
              state.screen = 'SEARCH_RESULTS';
            }
            show(d.results || []);
          }, function (err) { showMessage(userMessage(linkError(err))); });
        };
        chips.appendChild(chip);
      });
    }, function (err) { showMessage(userMessage(linkError(err))); });
    screen('Which company bills you?', 'Search by name, or pick a category.', [input, chips, list]);
  }

  // categoryName writes a merchant category for people: food_and_delivery
  // is Food and delivery.
  function categoryName(c) {
    var t = c.replace(/_/g, ' ');
    return t.charAt(0).toUpperCase() + t.slice(1);
  }

  // --- search -------------------------------------------------------------

  var searchTimer = null;
  function renderSearch(platformOnly) {
    var list = h('ul', { 'class': 'results', id: 'results' });
    var input = h('input', {
      id: 'search-input', type: 'search', autocomplete: 'off',
      placeholder: platformOnly ? 'Search for your payroll provider' : 'Search for your employer or payroll provider',
      'aria-label': 'Search'
    });
    var label = h('label', { 'for': 'search-input', 'class': 'visually-hidden', text: 'Search for your employer or payroll provider' });
    input.oninput = function () {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(function () { runSearch(input.value, list, platformOnly); }, 150);
    };
    screen(platformOnly ? 'Find your payroll provider' : 'Where do you work?',
      state.session.wants_switch ? 'Connect your payroll account to switch your direct deposit.' : 'Connect your payroll account.',
      [label, input, list]);
  }

  function runSearch(q, list, platformOnly) {
    if (!q.trim()) { list.innerHTML = ''; return; }
    api('GET', 'search?q=' + encodeURIComponent(q)).then(function (data) {
      var results = data.results.filter(function (r) { return !platformOnly || r.kind === 'platform'; });
      if (!platformOnly && state.screen !== 'SEARCH_RESULTS') {
        emit('screen_transition', { screen_name: 'SEARCH_RESULTS' });
        state.screen = 'SEARCH_RESULTS';
      }
      list.innerHTML = '';
      if (!results.length) list.appendChild(h('li', { 'class': 'muted none', text: 'No matches. Try the name of your payroll provider instead.' }));
      results.forEach(function (r) {
        list.appendChild(resultItem(r, state.session.bill_job ? 'Company' : r.kind === 'employer' ? 'Employer' : 'Payroll provider'));
      });
    }, function (err) { showMessage(userMessage(linkError(err))); });
  }

  function resultItem(r, kind) {
    return h('li', {}, [h('button', {
      'class': 'result', 'data-id': r.id, 'data-kind': r.kind,
      onclick: function () { choose(r); }
    }, [logo(r.name, r.logo_url), h('span', { 'class': 'name', text: r.name }), h('span', { 'class': 'kind', text: kind })])]);
  }

  function choose(r) {
    if (r.kind === 'employer') {
      state.employer = { id: r.id, name: r.name };
      state.platform = { id: r.platform_id, name: r.platform_name };
      emit('select_employer', { selectedEmployerId: r.id, selectedEmployerName: r.name });
    } else {
      state.employer = null;
      state.platform = { id: r.id, name: r.name };
      emit('select_platform', { selectedPlatformId: r.id, selectedPlatformName: r.name });
    }
    transition('PROVIDER_CONFIRMATION', renderProviderConfirmation);
  }

  function renderProviderConfirmation() {
    var who = state.employer ? state.employer.name + ' pays you through ' + state.platform.name + '. You will sign in there next.'
      : 'You will sign in with your ' + state.platform.name + ' username and password next.';
    screen(state.employer ? state.employer.name : state.platform.name, who, [
      h('div', { 'class': 'provider' }, [logo(state.platform.name, state.platform.logo_url), h('span', { text: state.platform.name })]),
      h('button', { id: 'confirm-provider', 'class': 'primary', text: 'Continue', onclick: function () { transition('LOGIN', renderLogin); } }),
      h('button', {
        id: 'not-my-platform', 'class': 'link', text: 'This is not my payroll provider',
        onclick: function () {
          emit('incorrect_platform_given', {});
          transition('SEARCH_PLATFORM_ONLY', function () { renderSearch(true); });
        }
      })
    ]);
  }

  // --- platform matching --------------------------------------------------

  function startMatching() {
    api('GET', 'matches').then(function (data) {
      if (!data.platforms.length) return transition('SEARCH_DEFAULT', renderSearch);
      transition('PROVIDER_CONFIRMATION', function () {
        screen('We found your payroll provider', 'Confirm to switch your direct deposit without logging in.',
          data.platforms.map(function (p) {
            return h('button', {
              'class': 'primary matched', 'data-id': p.id, text: 'Switch with ' + p.name,
              onclick: function () {
                state.platform = p;
                emit('select_platform', { selectedPlatformId: p.id, selectedPlatformName: p.name });
                runJob(api('POST', 'matched_switch', { platform_id: p.id }).then(function (job) {
                  state.accountId = job.account_id;
                  return job;
                }), null, 'direct_deposit_switch', 'Switching your direct deposit…');
              }
            });
          }));
      });
    }, function (err) { fail(err); transition('SEARCH_DEFAULT', renderSearch); });
  }

  // --- login ----------------------------------------------------------------

  function renderLogin(mfaPrompt) {
    state.mfa = !!mfaPrompt;
    var user = h('input', { id: 'username', autocomplete: 'username' });
    var pass = h('input', { id: 'password', type: 'password', autocomplete: 'current-password' });
    var mfa = mfaPrompt ? h('input', { id: 'mfa-code', inputmode: 'numeric', autocomplete: 'one-time-code' }) : null;
    var fields = [h('label', { 'for': 'username', text: state.platform.name + ' username' }), user,
      h('label', { 'for': 'password', text: 'Password' }), pass];
    if (mfaPrompt) {
      user.value = state.username; pass.value = state.password || '';
      fields = [h('div', { hidden: 'hidden' }, fields), h('label', { 'for': 'mfa-code', text: 'Verification code' }), mfa];
    }
    var submit = h('button', { id: mfaPrompt ? 'mfa-submit' : 'login-submit', 'class': 'primary', text: mfaPrompt ? 'Verify' : 'Sign in' });
    var form = h('form', { 'class': 'stack' }, fields.concat([submit]));
    form.onsubmit = function (ev) {
      ev.preventDefault();
      submit.disabled = true;
      state.username = user.value;
      state.password = pass.value;
      emit('login_attempt', { platformId: state.platform.id });
      api('POST', 'login', {
        platform_id: state.platform.id, employer_id: state.employer ? state.employer.id : '',
        username: user.value, password: pass.value, mfa_code: mfa ? mfa.value : '',
        consent_text_version: state.session.skip_intro_screen ? '' : (state.session.consent_text_version || '')
      }).then(function (res) {
        if (res.mfa_required) return renderLogin(res.prompt);
        state.password = null;
        state.mfa = false;
        state.accountId = res.account_id;
        state.platform = res.platform;
        emit('login', { platformId: res.platform.id, accountId: res.account_id });
        afterLogin();
      }, function (err) {
        submit.disabled = false;
        var e = fail(err);
        showMessage(userMessage(e));
        offerUpload(e);
      });
    };
    // After a login that failed for a reason the person cannot fix now
    // (a password they do not have, a provider that is down), the upload
    // path is offered in the same session, where the message is read.
    var offer = h('div', { 'class': 'offer', id: 'login-failed-offer', hidden: 'hidden' }, [
      h('p', { text: 'You can also send your paystubs instead of signing in.' }),
      h('button', {
        id: 'upload-after-failure', 'class': 'secondary', text: 'Upload paystubs instead', onclick: function () {
          emit('doc_uploads_begin', {});
          transition('DOC_UPLOAD', parts.renderUpload);
        }
      })]);
    function offerUpload(e) {
      offer.hidden = !(state.session.uploads && !mfaPrompt && UPLOAD_AFTER[e.code]);
    }
    var restricted = state.session.platform && !state.session.on_demand_update;
    var hint = mfaPrompt ? mfaPrompt
      : state.session.mode === 'sandbox' ? 'Sandbox: sign in as user_good with password pass_good.'
        : 'Your login goes to ' + state.platform.name + ', never to ' + state.session.org_name + '.';
    var upload = !mfaPrompt && state.session.uploads ? h('button', {
      id: 'upload-instead', 'class': 'link', text: 'I cannot sign in: upload my documents instead',
      onclick: function () {
        emit('doc_uploads_begin', {});
        transition('DOC_UPLOAD', parts.renderUpload);
      }
    }) : null;
    screen(mfaPrompt ? 'Verify it is you' : 'Sign in to ' + state.platform.name, hint,
      [form, offer, upload, restricted ? h('button', {
        id: 'not-my-platform', 'class': 'link', text: 'This is not my payroll provider',
        onclick: function () { emit('incorrect_platform_given', {}); exit(); }
      }) : null]);
    updateBack();
  }

  // The login failures after which Link offers the upload path: the
  // person's credentials refused or their account locked, or the provider
  // (or what reaches it) down.
  var UPLOAD_AFTER = { INVALID_CREDENTIALS: true, ACCOUNT_LOCKED: true, PLATFORM_UNAVAILABLE: true, UPSTREAM_UNAVAILABLE: true };

  function afterLogin() {
    var s = state.session;
    if (s.bill_job === 'bill_switch') return transition('BILL_PAYMENT', renderBillPayment);
    if (s.bill_job === 'bill_cancellation') return transition('BILL_CANCEL_CONFIRMATION', renderCancelConfirmation);
    if (!s.wants_switch) {
      emit('success', { accountId: state.accountId, platformId: state.platform.id, job: 'login' });
      return transition('JOB_SUCCESS', renderSuccess);
    }
    var preset = s.allocation && s.allocation.type;
    if (preset) {
      state.allocation = { action: 'partial_switch', type: s.allocation.type, value: s.allocation.value };
      return transition('DD_CONFIRMATION', renderConfirmation);
    }
    if (s.disable_splitting) {
      state.allocation = { action: 'full_switch' };
      emit('input_allocation', { action: 'full_switch' });
      return transition('DD_CONFIRMATION', renderConfirmation);
    }
    transition('DD_AMOUNT_SELECTION', renderAmountSelection);
  }

  // --- bills ---------------------------------------------------------------

  // luhn reports whether a card number's check digit is right, so a typo
  // is caught before anything is sent.
  function luhn(n) {
    if (!/^\d{12,19}$/.test(n)) return false;
    var sum = 0;
    for (var i = 0; i < n.length; i++) {
      var d = Number(n[n.length - 1 - i]);
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    return sum % 10 === 0;
  }

  // renderBillPayment asks how the bill should be paid from now on: one of
  // the bank accounts the link token names, or a card.
  function renderBillPayment() {
    var targets = ((state.session.allocation || {}).targets) || [];
    var options = targets.map(function (t, i) {
      return h('label', { 'class': 'choice' }, [
        h('input', { type: 'radio', name: 'pay', id: 'pay-target-' + i, value: String(i), checked: i === 0 ? 'checked' : null }),
        document.createTextNode((t.name || t.type) + ' ••••' + t.last_four)]);
    });
    var cardRadio = h('input', { type: 'radio', name: 'pay', id: 'pay-card', value: 'card', checked: targets.length ? null : 'checked' });
    options.push(h('label', { 'class': 'choice' }, [cardRadio, document.createTextNode('A debit or credit card')]));
    var number = h('input', { id: 'card-number', inputmode: 'numeric', autocomplete: 'cc-number' });
    var name = h('input', { id: 'card-name', autocomplete: 'cc-name' });
    var month = h('input', { id: 'card-exp-month', inputmode: 'numeric', autocomplete: 'cc-exp-month', placeholder: 'MM' });
    var year = h('input', { id: 'card-exp-year', inputmode: 'numeric', autocomplete: 'cc-exp-year', placeholder: 'YYYY' });
    var card = h('div', { id: 'card-form', 'class': 'stack', hidden: targets.length ? 'hidden' : null }, [
      h('label', { 'for': 'card-number', text: 'Card number' }), number,
      h('label', { 'for': 'card-name', text: 'Name on the card' }), name,
      h('div', { 'class': 'row' }, [
        h('div', {}, [h('label', { 'for': 'card-exp-month', text: 'Expiry month' }), month]),
        h('div', {}, [h('label', { 'for': 'card-exp-year', text: 'Expiry year' }), year])])]);
    var group = h('div', { 'class': 'choices', role: 'radiogroup', 'aria-label': 'Payment method' }, options);
    group.onchange = function () { card.hidden = !cardRadio.checked; };
    var confirm = h('button', { id: 'confirm-bill', 'class': 'primary', text: 'Switch this bill' });
    confirm.onclick = function () {
      var body = { job: 'bill_switch' };
      var picked = group.querySelector('input:checked');
      if (picked && picked.value !== 'card') {
        body.target = targets[Number(picked.value)].name || '';
      } else {
        var digits = number.value.replace(/[\s-]/g, '');
        if (!luhn(digits)) return showMessage('That card number does not look right. Check it and try again.');
        if (!name.value.trim()) return showMessage('Enter the name on the card.');
        var m = Number(month.value), y = Number(year.value);
        if (!(m >= 1 && m <= 12) || !(y >= 2000)) return showMessage('Enter the expiry month and year as they appear on the card.');
        body.card = { number: digits, name: name.value.trim(), exp_month: m, exp_year: y };
        state.card = { name: body.card.name, last_four: digits.slice(-4) };
      }
      state.billTarget = body.target !== undefined ? targets[Number(picked.value)] : null;
      confirm.disabled = true;
      runJob(api('POST', 'bill', body), null, 'bill_switch', 'Switching your bill…');
    };
    screen('How should ' + state.platform.name + ' charge you?', 'Nothing changes until you confirm.', [group, card, confirm]);
  }

  function renderCancelConfirmation() {
    screen('Cancel your ' + state.platform.name + ' subscription?', 'Nothing changes until you confirm.', [
      h('div', { 'class': 'summary', id: 'summary', text: 'Payline will ask ' + state.platform.name + ' to cancel your subscription.' }),
      h('button', {
        id: 'confirm-cancel', 'class': 'primary', text: 'Cancel subscription', onclick: function (ev) {
          ev.target.disabled = true;
          runJob(api('POST', 'bill', { job: 'bill_cancellation' }), null, 'bill_cancellation', 'Cancelling your subscription…');
        }
      })
    ]);
  }

  // --- allocation -----------------------------------------------------------

  function renderAmountSelection() {
    var p = state.platform;
    var partial = h('div', { id: 'partial', hidden: 'hidden' });
    var type = h('select', { id: 'alloc-type', 'aria-label': 'Allocation type' });
    if (p.amount_supported) type.appendChild(h('option', { value: 'amount', text: 'A fixed amount' }));
    if (p.percentage_supported) type.appendChild(h('option', { value: 'percentage', text: 'A percentage' }));
    type.appendChild(h('option', { value: 'remainder', text: 'Whatever is left after other deposits' }));
    var value = h('input', { id: 'alloc-value', inputmode: 'decimal', placeholder: 'Value', 'aria-label': 'Value' });
    var hint = h('p', { 'class': 'muted', id: 'alloc-hint' });
    function updateHint() {
      value.hidden = type.value === 'remainder';
      hint.textContent = type.value === 'amount' && p.min_amount != null ? 'Between ' + money(p.min_amount) + ' and ' + money(p.max_amount) + '.'
        : type.value === 'percentage' ? 'Between ' + p.min_percentage + '% and ' + p.max_percentage + '%.' : '';
    }
    type.onchange = updateHint;
    updateHint();
    [type, value, hint].forEach(function (n) { partial.appendChild(n); });
    var full = h('button', { id: 'alloc-full', 'class': 'secondary', 'aria-pressed': 'true', text: 'Entire paycheck' });
    var part = h('button', { id: 'alloc-partial', 'class': 'secondary', 'aria-pressed': 'false', text: 'Part of it' });
    full.onclick = function () { full.setAttribute('aria-pressed', 'true'); part.setAttribute('aria-pressed', 'false'); partial.hidden = true; };
    part.onclick = function () { part.setAttribute('aria-pressed', 'true'); full.setAttribute('aria-pressed', 'false'); partial.hidden = false; };
    var next = h('button', {
      id: 'alloc-continue', 'class': 'primary', text: 'Continue', onclick: function () {
        var a = { action: 'full_switch' };
        if (part.getAttribute('aria-pressed') === 'true') {
          a = { action: 'partial_switch', type: type.value };
          if (type.value !== 'remainder') {
            var v = Number(value.value);
            var problem = checkValue(type.value, v, p);
            if (problem) return showMessage(problem);
            a.value = v;
          }
        }
        state.allocation = a;
        var payload = { action: a.action };
        if (a.type) payload.allocation = a.value != null ? { type: a.type, value: a.value } : { type: a.type };
        emit('input_allocation', payload);
        transition('DD_CONFIRMATION', renderConfirmation);
      }
    });
    screen('How much should go to your account?', 'Choose the entire paycheck or part of it.',
      [h('div', { 'class': 'choice' }, [full, part]), partial, next]);
  }

  function checkValue(type, v, p) {
    if (!isFinite(v) || v <= 0) return 'Enter a number greater than zero.';
    if (type === 'amount') {
      if (!p.fractional_amount_supported && v !== Math.floor(v)) return p.name + ' takes whole dollar amounts only.';
      if (p.min_amount != null && v < p.min_amount) return 'The least ' + p.name + ' takes is ' + money(p.min_amount) + '.';
      if (p.max_amount != null && v > p.max_amount) return 'The most ' + p.name + ' takes is ' + money(p.max_amount) + '.';
    }
    if (type === 'percentage' && (v !== Math.floor(v) || v < p.min_percentage || v > p.max_percentage)) {
      return 'Choose a whole percentage from ' + p.min_percentage + ' to ' + p.max_percentage + '.';
    }
    return '';
  }

  function describe(a) {
    if (a.action === 'full_switch') return 'your entire paycheck';
    if (a.type === 'amount') return money(a.value) + ' of each paycheck';
    if (a.type === 'percentage') return a.value + '% of each paycheck';
    return 'what is left of each paycheck after your other deposits';
  }

  function renderConfirmation() {
    var target = (state.session.allocation.targets || [])[0] || {};
    var where = (target.name || target.type) + ' ••••' + target.last_four;
    screen('Confirm your switch', 'Nothing changes until you confirm.', [
      h('div', { 'class': 'summary', id: 'summary', text: 'Send ' + describe(state.allocation) + ' to ' + where + '.' }),
      h('button', {
        id: 'confirm-switch', 'class': 'primary', text: 'Confirm switch', onclick: function (ev) {
          ev.target.disabled = true;
          var a = state.allocation;
          runJob(api('POST', 'switch', { action: a.action, type: a.type || '', value: a.value }), a, 'direct_deposit_switch', 'Switching your direct deposit…');
        }
      })
    ]);
  }

  // --- jobs -------------------------------------------------------------------

  function runJob(started, allocation, jobName, working) {
    screen(working, 'This usually takes a few seconds. Please keep this window open.',
      [h('div', { 'class': 'spinner', role: 'progressbar', 'aria-label': 'Working' })]);
    started.then(function (job) { poll(job.id, allocation, Date.now(), jobName); }, function (err) {
      fail(err);
      transition('JOB_ERROR', renderError);
    });
  }

  function poll(id, allocation, since, jobName) {
    api('GET', 'jobs/' + id).then(function (job) {
      if (!job.outcome || (job.outcome === 'pending' && Date.now() - since < 4000)) {
        return setTimeout(function () { poll(id, allocation, since, jobName); }, 250);
      }
      if (job.outcome === 'success') {
        var payload = { accountId: job.account_id, platformId: job.platform_id, job: jobName };
        if (allocation) {
          payload.params = { action: allocation.action };
          if (allocation.action === 'partial_switch') {
            payload.params.allocation = { type: allocation.type };
            if (allocation.type !== 'remainder') payload.params.allocation.value = allocation.value;
          }
        }
        emit('success', payload);
        return transition('JOB_SUCCESS', renderSuccess);
      }
      fail(job.error, job.outcome === 'pending');
      transition('JOB_ERROR', renderError);
    }, function (err) {
      fail(err);
      transition('JOB_ERROR', renderError);
    });
  }

  function checkIcon() {
    var ns = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 48 48');
    svg.setAttribute('class', 'done-icon');
    svg.setAttribute('aria-hidden', 'true');
    var circle = document.createElementNS(ns, 'circle');
    circle.setAttribute('cx', '24'); circle.setAttribute('cy', '24'); circle.setAttribute('r', '24');
    var tick = document.createElementNS(ns, 'path');
    tick.setAttribute('d', 'M14 25l7 7 13-15');
    svg.appendChild(circle); svg.appendChild(tick);
    return svg;
  }

  // successText says what happened, in words.
  function successText() {
    var s = state.session;
    if (s.bill_job === 'bill_cancellation') return state.platform.name + ' has your cancellation. You will not be charged again.';
    if (s.bill_job === 'bill_switch') {
      var how = state.card ? (state.card.name + ' card ••••' + state.card.last_four)
        : state.billTarget ? (state.billTarget.name || state.billTarget.type) + ' ••••' + state.billTarget.last_four : 'your new payment method';
      return state.platform.name + ' will charge ' + how + ' from your next bill.';
    }
    if (!s.wants_switch) {
      return 'Your ' + state.platform.name + ' account is connected. ' + s.org_name + ' can now see what you agreed to share.';
    }
    var target = ((s.allocation || {}).targets || [])[0];
    var where = target ? (target.name || target.type) + ' ••••' + target.last_four : 'your new account';
    if (!state.allocation) return 'Your paycheck will go to ' + where + ' starting with your next pay date.';
    var what = describe(state.allocation);
    return what.charAt(0).toUpperCase() + what.slice(1) + ' will go to ' + where + ' starting with your next pay date.';
  }

  function renderSuccess() {
    var children = [checkIcon(), h('p', { 'class': 'outcome', id: 'outcome', text: successText() })];
    if (state.session.wants_switch) children.push(depositFormButton());
    if (!state.session.bill_job) children.push(receiptForm());
    children.push(h('button', { id: 'done', 'class': 'primary', text: 'Done', onclick: exit }));
    var bill = state.session.bill_job;
    screen(bill === 'bill_switch' ? 'Your bill is switched' : bill === 'bill_cancellation' ? 'Your subscription is cancelled'
      : state.session.wants_switch ? 'Your direct deposit is switched' : 'You are connected', '', children);
  }

  // The direct deposit form of the switch: some employers want it on paper.
  // receiptForm asks, optionally, where to e-mail a receipt: who asked,
  // for what, which data, when, and a link to the person's own page
  // (docs/person.md). Nothing is sent without an address.
  function receiptForm() {
    var input = h('input', { id: 'receipt-email', type: 'email', autocomplete: 'email', inputmode: 'email', 'data-optional': '' });
    var status = h('p', { id: 'receipt-status', 'class': 'muted', role: 'status' });
    var send = h('button', { id: 'receipt-send', type: 'submit', 'class': 'secondary', text: 'Send me a receipt' });
    var form = h('form', { 'class': 'stack', id: 'receipt-form', onsubmit: function (e) {
      e.preventDefault();
      if (!input.value.trim()) { status.textContent = 'Type your e-mail address first.'; return; }
      send.disabled = true;
      status.textContent = 'Sending…';
      api('POST', 'receipt', { email: input.value.trim() }).then(function (r) {
        status.textContent = 'Sent to ' + r.sent_to + '. It has a link to your own page.';
      }, function (err) { send.disabled = false; status.textContent = userMessage(linkError(err)); });
    } }, [h('label', { 'for': 'receipt-email', text: 'E-mail me a receipt (optional)' }), input, send, status]);
    return form;
  }

  function depositFormButton() {
    var holder = h('div', { 'class': 'dd-form' });
    var button = h('button', {
      id: 'dd-form', 'class': 'secondary', text: 'Get a direct deposit form', onclick: function () {
        emit('dd_form_begin', {});
        button.disabled = true;
        api('POST', 'dd_form', {}).then(function (form) {
          emit('dd_form_create', { url: form.url });
          holder.innerHTML = '';
          holder.appendChild(h('a', {
            id: 'dd-form-download', 'class': 'secondary', href: form.url, target: '_blank', rel: 'noopener',
            text: 'Download your direct deposit form', onclick: function () { emit('dd_form_download', {}); }
          }));
        }, function (err) { button.disabled = false; showMessage(userMessage(linkError(err))); });
      }
    });
    holder.appendChild(button);
    return holder;
  }

  function renderError() {
    var e = state.lastError || {};
    screen(e.pendingRetry ? 'Almost there' : 'Something went wrong', userMessage(e), [
      h('button', { id: 'done', 'class': 'primary', text: 'Close', onclick: exit })]);
  }

  function renderExitConfirmation() {
    screen('Are you sure you want to exit?', 'Your progress will be lost.', [
      h('button', { id: 'exit-confirm', 'class': 'primary', text: 'Exit', onclick: exit }),
      h('button', {
        id: 'exit-cancel', 'class': 'secondary', text: 'Keep going', onclick: function () {
          if (state.screen === 'EXIT_CONFIRMATION' && !state.history.length) return renderConsent();
          var back = state.history[state.history.length - 1];
          transition(back.name, back.render);
        }
      })
    ]);
  }

  parts.state = state; parts.$ = $; parts.h = h; parts.api = api; parts.screen = screen;
  parts.showMessage = showMessage; parts.userMessage = userMessage; parts.fail = fail; parts.emit = emit;
  parts.transition = transition; parts.updateBack = updateBack; parts.exit = exit; parts.checkIcon = checkIcon;
  parts.start = start; parts.begin = begin; parts.renderConsent = renderConsent; parts.renderLogin = renderLogin;
  parts.renderProviderConfirmation = renderProviderConfirmation;
})();
