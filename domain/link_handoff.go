package domain

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"time"
)

// A Link hand-off moves a Link session from one device to another: Link
// opened on a computer shows a QR code, and the phone that scans it
// continues the same link token at the step the computer was at, without
// starting over (issue 48). The QR code holds a URL with a code that is
// random (32 bytes), single-use, expires in minutes and is stored only
// as its hash; it never holds the link token. The phone that claims the
// code gets a key of its own (random, stored hashed) that opens the same
// link token wherever the token itself would (Open), until the token
// expires or is used.

// HandoffTTL is how long a hand-off code may be claimed after it was
// made: long enough to find a phone and scan, short enough that a photo
// of the screen is soon worth nothing.
const HandoffTTL = 10 * time.Minute

// Handoff screens: the steps Link may continue at on the other device.
// Each is a step before anything is submitted, so nothing the computer
// typed (a password) is ever carried.
const (
	HandoffSearch   = "SEARCH_DEFAULT"
	HandoffProvider = "PROVIDER_CONFIRMATION"
	HandoffLogin    = "LOGIN"
	HandoffUpload   = "DOC_UPLOAD"
)

var handoffScreens = map[string]bool{HandoffSearch: true, HandoffProvider: true, HandoffLogin: true, HandoffUpload: true}

// LinkHandoff is one hand-off of a link token's session.
type LinkHandoff struct {
	ID          string
	CustomerID  string
	Mode        Mode
	LinkTokenID string
	CodeHash    []byte
	KeyHash     []byte // set when claimed
	// Screen, PlatformID and EmployerID are the step to continue at.
	Screen     string
	PlatformID string
	EmployerID string
	CreatedAt  time.Time
	Expires    time.Time
	ClaimedAt  *time.Time
}

// Scope is the hand-off's tenant.
func (h LinkHandoff) Scope() Scope { return Scope{CustomerID: h.CustomerID, Mode: h.Mode} }

// Status is pending (not yet claimed, not expired), claimed or expired,
// at now.
func (h LinkHandoff) Status(now time.Time) string {
	switch {
	case h.ClaimedAt != nil:
		return "claimed"
	case !now.Before(h.Expires):
		return "expired"
	}
	return "pending"
}

// LinkHandoffStore keeps hand-offs, by the hashes of their code and key.
type LinkHandoffStore interface {
	CreateLinkHandoff(ctx context.Context, h LinkHandoff) error
	// LinkHandoff returns the scope's hand-off; ErrNoRows if none.
	LinkHandoff(ctx context.Context, s Scope, id string) (LinkHandoff, error)
	// ClaimLinkHandoff sets the key hash and claimed_at of the hand-off
	// with the code hash, only if it is unclaimed and expires after at:
	// two phones racing for one code, one wins. ErrNoRows when none was
	// claimed (unknown, claimed before, or expired).
	ClaimLinkHandoff(ctx context.Context, codeHash, keyHash []byte, at time.Time) (LinkHandoff, error)
	// LinkHandoffByCode and LinkHandoffByKey find a hand-off, in any
	// tenant, by the hash of its code or of its key; ErrNoRows if none.
	LinkHandoffByCode(ctx context.Context, codeHash []byte) (LinkHandoff, error)
	LinkHandoffByKey(ctx context.Context, keyHash []byte) (LinkHandoff, error)
}

// HandoffStep is where Link is when it is handed off.
type HandoffStep struct {
	Screen     string
	PlatformID string
	EmployerID string
}

func randomSecret() (string, error) {
	b, err := RandomBytes(32)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func hashSecret(v string) []byte {
	h := sha256.Sum256([]byte(v))
	return h[:]
}

// StartHandoff makes a hand-off of the session of the link token value,
// at step: the hand-off and its code (shown once, in the QR code's URL).
// The step is checked against the token (its platform or employer, if
// it names one; uploads only when the session offers them). Errors:
// those of Open; LINK_TOKEN_USED once the token logged in or uploaded;
// INVALID_FIELDS for a step Link cannot continue at.
func (s *LinkService) StartHandoff(ctx context.Context, value string, step HandoffStep) (LinkHandoff, string, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return LinkHandoff{}, "", err
	}
	t := sess.Token
	if sess.Account != nil || t.UsedAt != nil {
		return LinkHandoff{}, "", Errorf(KindInvalid, CodeLinkTokenUsed, "this link token was already used; ask for a new one")
	}
	var p Problems
	if !handoffScreens[step.Screen] {
		p.Invalid("screen", "must be SEARCH_DEFAULT, PROVIDER_CONFIRMATION, LOGIN or DOC_UPLOAD, got %q", step.Screen)
	}
	if step.Screen == HandoffUpload && !sess.UploadsOffered() {
		p.Invalid("screen", "this link token does not offer document uploads")
	}
	if err := p.Err(); err != nil {
		return LinkHandoff{}, "", err
	}
	if step.Screen == HandoffProvider || step.Screen == HandoffLogin || (step.Screen == HandoffUpload && step.PlatformID != "") {
		// The platform the user chose must be one this token may use.
		if _, _, err := s.Target(ctx, t, step.PlatformID, step.EmployerID); err != nil {
			return LinkHandoff{}, "", err
		}
	} else {
		step.PlatformID, step.EmployerID = "", ""
	}
	code, err := randomSecret()
	if err != nil {
		return LinkHandoff{}, "", err
	}
	now := s.clock.Now()
	h := LinkHandoff{ID: NewID(), CustomerID: t.CustomerID, Mode: t.Mode, LinkTokenID: t.ID, CodeHash: hashSecret(code),
		Screen: step.Screen, PlatformID: step.PlatformID, EmployerID: step.EmployerID, CreatedAt: now, Expires: now.Add(HandoffTTL)}
	if err := s.tx.LinkHandoffs().CreateLinkHandoff(ctx, h); err != nil {
		return LinkHandoff{}, "", err
	}
	return h, code, nil
}

// Handoff is a hand-off of the session of the link token value and its
// status now, for the device that made it to see whether the phone took
// it. Errors: those of Open; LINK_HANDOFF_INVALID for another token's or
// an unknown id.
func (s *LinkService) Handoff(ctx context.Context, value, id string) (LinkHandoff, string, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return LinkHandoff{}, "", err
	}
	h, err := s.tx.LinkHandoffs().LinkHandoff(ctx, sess.Token.Scope(), id)
	if errors.Is(err, ErrNoRows) || (err == nil && h.LinkTokenID != sess.Token.ID) {
		return LinkHandoff{}, "", Errorf(KindNotFound, CodeLinkHandoffInvalid, "this link token has no hand-off %s", id)
	}
	if err != nil {
		return LinkHandoff{}, "", err
	}
	return h, h.Status(s.clock.Now()), nil
}

// ClaimHandoff takes a hand-off's code, once: the hand-off and a key of
// the claiming device's own, which opens the link token (Open) until it
// expires or is used. Errors: LINK_HANDOFF_INVALID (unknown or already
// claimed), LINK_HANDOFF_EXPIRED, and those of Open for the token.
func (s *LinkService) ClaimHandoff(ctx context.Context, code string) (LinkHandoff, string, error) {
	if code == "" || len(code) > 128 {
		return LinkHandoff{}, "", Errorf(KindInvalid, CodeLinkHandoffInvalid, "this hand-off code is not valid")
	}
	key, err := randomSecret()
	if err != nil {
		return LinkHandoff{}, "", err
	}
	now := s.clock.Now()
	h, err := s.tx.LinkHandoffs().ClaimLinkHandoff(ctx, hashSecret(code), hashSecret(key), now)
	if errors.Is(err, ErrNoRows) {
		found, ferr := s.tx.LinkHandoffs().LinkHandoffByCode(ctx, hashSecret(code))
		if ferr == nil && found.ClaimedAt == nil && !now.Before(found.Expires) {
			return LinkHandoff{}, "", Errorf(KindInvalid, CodeLinkHandoffExpired, "this hand-off code expired at %s", found.Expires.Format(time.RFC3339))
		}
		if ferr != nil && !errors.Is(ferr, ErrNoRows) {
			return LinkHandoff{}, "", ferr
		}
		return LinkHandoff{}, "", Errorf(KindInvalid, CodeLinkHandoffInvalid, "this hand-off code is not valid or was already used")
	}
	if err != nil {
		return LinkHandoff{}, "", err
	}
	// The token must still open: a code claimed after the token expired or
	// was used says so, as the token would.
	if _, err := s.openByKey(ctx, h); err != nil {
		return LinkHandoff{}, "", err
	}
	return h, key, nil
}

// openByKey opens the link token of a claimed hand-off.
func (s *LinkService) openByKey(ctx context.Context, h LinkHandoff) (LinkToken, error) {
	t, err := s.tx.LinkTokens().LinkToken(ctx, h.Scope(), h.LinkTokenID)
	if errors.Is(err, ErrNoRows) {
		return LinkToken{}, Errorf(KindInvalid, CodeLinkTokenInvalid, "this link token is not valid; create a new one with POST /v1/link_tokens")
	}
	if err != nil {
		return LinkToken{}, err
	}
	if !s.clock.Now().Before(t.Expires) {
		return LinkToken{}, Errorf(KindInvalid, CodeLinkTokenExpired, "this link token expired at %s; create a new one", t.Expires.Format(time.RFC3339))
	}
	return t, nil
}

// tokenHashByHandoffKey is the hash of the link token a claimed
// hand-off's key opens: ErrNoRows when the hash is no hand-off's key.
func (s *LinkService) tokenHashByHandoffKey(ctx context.Context, keyHash []byte) ([]byte, error) {
	h, err := s.tx.LinkHandoffs().LinkHandoffByKey(ctx, keyHash)
	if err != nil {
		return nil, err
	}
	t, err := s.tx.LinkTokens().LinkToken(ctx, h.Scope(), h.LinkTokenID)
	if err != nil {
		return nil, err
	}
	return t.TokenHash, nil
}
