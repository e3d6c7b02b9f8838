/*
 * Continuing Link on a phone: on a computer, the hand-off's QR code and
 * the wait for the phone; on the phone, the claim of the code and the
 * step to continue at. Part of the modal (modal.js's parts).
 */
(function () {
  'use strict';

  var parts = window.PaylineModal, state = parts.state, $ = parts.$, h = parts.h, api = parts.api, screen = parts.screen;
  var showMessage = parts.showMessage, userMessage = parts.userMessage, fail = parts.fail, emit = parts.emit;
  var transition = parts.transition, exit = parts.exit, checkIcon = parts.checkIcon;
  var updateBack = parts.updateBack, renderConsent = parts.renderConsent, renderLogin = parts.renderLogin;
  var renderProviderConfirmation = parts.renderProviderConfirmation, begin = parts.begin, start = parts.start;

  // --- continuing on a phone ---------------------------------------------------

  // The screens Link may be handed to a phone from, and the step the phone
  // continues at: always before anything is submitted, so nothing typed
  // here (a password) goes with it.
  var HANDOFF_FROM = {
    CONSENT: 'SEARCH_DEFAULT', SEARCH_DEFAULT: 'SEARCH_DEFAULT', SEARCH_RESULTS: 'SEARCH_DEFAULT', SEARCH_PLATFORM_ONLY: 'SEARCH_DEFAULT',
    PROVIDER_CONFIRMATION: 'PROVIDER_CONFIRMATION', LOGIN: 'LOGIN', DOC_UPLOAD: 'DOC_UPLOAD'
  };

  // onComputer: a wide screen with a fine pointer; a phone is not offered
  // to continue on a phone.
  function onComputer() {
    return !state.onPhone && window.innerWidth >= 600 && !(window.matchMedia && window.matchMedia('(pointer: coarse)').matches);
  }

  function updateHandoff() {
    $('handoff').hidden = !(state.session && !state.session.upstream && HANDOFF_FROM[state.screen] && !state.mfa && onComputer());
  }

  // startHandoff asks for a hand-off of this session at the step Link is
  // at and shows its QR code; back is the screen to return to.
  function startHandoff(from, back) {
    var s = state.session, step = HANDOFF_FROM[from];
    var platform = state.platform, employer = state.employer;
    if (step === 'SEARCH_DEFAULT' && s.platform) {
      step = 'LOGIN'; // the token names the provider: the phone signs in
      platform = s.platform; employer = s.employer || null;
    }
    var body = { screen: step, platform_id: '', employer_id: '' };
    if (step !== 'SEARCH_DEFAULT' && platform) {
      body.platform_id = platform.id;
      body.employer_id = employer ? employer.id : '';
    }
    $('handoff').disabled = true;
    api('POST', 'handoff', body).then(function (hf) {
      $('handoff').disabled = false;
      showHandoff(hf, from, back);
    }, function (err) {
      $('handoff').disabled = false;
      showMessage(userMessage(fail(err)));
    });
  }

  // returnTo shows again the screen Link was handed off from.
  function returnTo(from, back) {
    clearTimeout(state.handoffTimer);
    if (from === 'CONSENT' || !back) return renderConsent();
    state.screen = back.name; // the same screen again: no new event
    transition(back.name, back.render);
  }

  function stayHere(from, back) {
    return h('button', { id: 'handoff-cancel', 'class': 'secondary', text: 'Continue on this computer instead', onclick: function () { returnTo(from, back); } });
  }

  // showHandoff shows the QR code and waits for the phone to open it. The
  // hand-off's screens send no screen_transition: the spec's screens and
  // events are unchanged.
  function showHandoff(hf, from, back) {
    state.screen = 'HANDOFF';
    updateBack();
    var minutes = Math.max(1, Math.round((Date.parse(hf.expires_at) - Date.now()) / 60000));
    screen('Continue on your phone', "Scan this code with your phone's camera. Link opens there at this step, without starting over.", [
      h('img', { id: 'handoff-qr', 'class': 'qr', src: hf.qr_code_png, width: '200', height: '200', alt: 'QR code that opens this Link on your phone' }),
      h('p', { 'class': 'muted', id: 'handoff-note', text: 'The code works once, for ' + minutes + ' minutes. Nothing you typed here goes to your phone.' }),
      stayHere(from, back)]);
    pollHandoff(hf.id, from, back);
  }

  function pollHandoff(id, from, back) {
    clearTimeout(state.handoffTimer);
    state.handoffTimer = setTimeout(function () {
      if (state.screen !== 'HANDOFF') return;
      api('GET', 'handoff/' + id).then(function (hf) {
        if (state.screen !== 'HANDOFF') return;
        if (hf.status === 'claimed') return showMoved(from, back);
        if (hf.status === 'expired') {
          return screen('This code expired', 'Show a new code to continue on your phone, or continue here.', [
            h('button', { id: 'handoff-again', 'class': 'primary', text: 'Show a new code', onclick: function () { startHandoff(from, back); } }),
            stayHere(from, back)]);
        }
        pollHandoff(id, from, back);
      }, function (err) {
        if (state.screen !== 'HANDOFF') return;
        if (err.type !== 'INVALID_LINK_TOKEN') return pollHandoff(id, from, back); // the network: look again
        var e = fail(err);
        state.screen = 'JOB_ERROR';
        screen('This link has ended', userMessage(e), [h('button', { id: 'done', 'class': 'primary', text: 'Close', onclick: exit })]);
      });
    }, 1500);
  }

  // showMoved says the session went to the phone, and watches it there:
  // once the phone is done, the session answers that its token was used.
  function showMoved(from, back) {
    state.screen = 'HANDOFF_DONE';
    updateBack();
    screen('You are continuing on your phone', 'Finish there. This window will say when you are done.', [
      h('p', { 'class': 'summary', id: 'handoff-moved', text: 'Link opened on your phone at the same step. You do not need to start over.' }),
      stayHere(from, back)]);
    (function watch() {
      state.handoffTimer = setTimeout(function () {
        if (state.screen !== 'HANDOFF_DONE') return;
        api('GET', 'session').then(watch, function (err) {
          if (state.screen !== 'HANDOFF_DONE') return;
          if (err.code !== 'LINK_TOKEN_USED' && err.type === 'INVALID_LINK_TOKEN') {
            // the session expired before the phone finished: say so and stop
            var e = fail(err);
            state.screen = 'JOB_ERROR';
            return screen('This link has ended', userMessage(e), [h('button', { id: 'done', 'class': 'primary', text: 'Close', onclick: exit })]);
          }
          if (err.code !== 'LINK_TOKEN_USED') return watch(); // the network: look again
          state.screen = 'HANDOFF_FINISHED';
          screen('All done on your phone', 'You can close this window.', [checkIcon(),
            h('button', { id: 'done', 'class': 'primary', text: 'Done', onclick: exit })]);
        });
      }, 2000);
    })();
  }

  // claim takes the code of a hand-off's QR code, on the phone: the
  // session's key for this phone, and the step to continue at.
  function claim(code) {
    state.claiming = true;
    api('POST', 'handoff/claim', { code: code }).then(function (res) {
      state.token = res.link_key;
      state.resume = res;
      state.onPhone = true;
      start();
    }, function (err) {
      var e = fail(err);
      state.screen = 'JOB_ERROR';
      screen('Link cannot continue', userMessage(e), [h('button', { id: 'done', 'class': 'primary', text: 'Close', onclick: exit })]);
    });
  }

  // resume continues a handed-off session at its step.
  function resume() {
    var r = state.resume, s = state.session;
    state.platform = r.platform || s.platform || null;
    state.employer = r.employer || s.employer || null;
    if (r.screen === 'LOGIN' && state.platform) return transition('LOGIN', renderLogin);
    if (r.screen === 'PROVIDER_CONFIRMATION' && state.platform) return transition('PROVIDER_CONFIRMATION', renderProviderConfirmation);
    if (r.screen === 'DOC_UPLOAD' && s.uploads) return transition('DOC_UPLOAD', parts.renderUpload);
    begin();
  }

  parts.updateHandoff = updateHandoff;
  parts.startHandoff = startHandoff;
  parts.claim = claim;
  parts.resume = resume;
})();
