package domain

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"
)

// PreviewRate is how often one link token may preview uploads: ten in a
// row, then one every six seconds. A person choosing files previews each
// time the choice changes, a few times; a script trying edits of a file
// until one reads as it wants would preview without end.
var PreviewRate = ThrottleRule{Burst: 10, Every: 6 * time.Second}

// KeyRate takes one from a key's rate, or says how long until there is
// one: an adapter's limiter (one process's, or shared by every instance
// through Redis), built from a ThrottleRule.
type KeyRate func(ctx context.Context, key string) (wait time.Duration, ok bool)

// MaxUploadReading bounds the reading of one upload or preview, all its
// files together, beside each program's own limit: ten files of pictures
// read by OCR take about a minute on one core, and a request whose files
// take longer holds its document slot from everyone waiting for one.
const MaxUploadReading = 2 * time.Minute

// uploadLimits are what bounds Link's uploads and previews beside their
// size: the instance's document slots, the previews' rate per token, and
// the time one request's reading may take.
type uploadLimits struct {
	admission *DocumentAdmission
	previews  KeyRate // nil: previews are not limited
	obs       DocumentObserver
	reading   time.Duration
}

func defaultUploadLimits() uploadLimits {
	return uploadLimits{admission: NewDocumentAdmission(DocumentAdmissionConfig{}, nil), obs: noDocumentObserver{}, reading: MaxUploadReading}
}

// WithUploadReadingLimit bounds the reading of one upload or preview at d
// instead of MaxUploadReading (tests; an operator on slow hardware). It
// returns s.
func (s *LinkService) WithUploadReadingLimit(d time.Duration) *LinkService {
	s.uploads.reading = d
	return s
}

// errReadingTooLong is the cause of a request's reading context that ran
// past its limit.
var errReadingTooLong = errors.New("the upload's reading ran past its limit")

// tooSlowToRead is the refusal of a request whose files took longer than
// limit to read.
func tooSlowToRead(limit time.Duration) error {
	return &Error{Kind: KindInvalid, Code: CodeUploadTooSlowToRead, Err: errReadingTooLong,
		Message: fmt.Sprintf("reading these files took longer than %s, the limit for one upload; upload fewer files at once, or pictures and scans of fewer pages", limit)}
}

// WithUploadLimits makes uploads and previews take a slot of admission
// before they are read, and previews one of previews (PreviewRate per
// token; nil: no limit); obs counts previews (nil: nothing does). It
// returns s. Without it a LinkService has slots of its own, sized to the
// cores, and no preview rate.
func (s *LinkService) WithUploadLimits(admission *DocumentAdmission, previews KeyRate, obs DocumentObserver) *LinkService {
	if obs == nil {
		obs = noDocumentObserver{}
	}
	s.uploads = uploadLimits{admission: admission, previews: previews, obs: obs, reading: cmp.Or(s.uploads.reading, MaxUploadReading)}
	return s
}

type uploadsAdmittedKey struct{}

// AdmitUploads readies an upload (or, when preview, a preview) with the
// link token value before its files are read off the wire, so a request
// that is refused or waits costs no memory for its files: the token must
// open and be one that may upload, a preview must be within the token's
// PreviewRate, and the upload must get a document slot (waiting for one
// at most the admission's Wait). The context it returns carries the
// admission, which UploadDocuments and PreviewUploads then use instead
// of taking another; release gives the slot back once the request is
// done. Errors: those of Open and uploadsRefusal; RATE_LIMIT_EXCEEDED
// (429) over the preview rate; those of DocumentAdmission.Admit.
func (s *LinkService) AdmitUploads(ctx context.Context, value string, preview bool) (context.Context, func(), error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return ctx, func() {}, err
	}
	if err := sess.uploadsRefusal(); err != nil {
		return ctx, func() {}, err
	}
	release, err := s.admitUploads(ctx, sess.Token, preview)
	if err != nil {
		return ctx, func() {}, err
	}
	return context.WithValue(ctx, uploadsAdmittedKey{}, sess.Token.ID), release, nil
}

// admitUploads takes what an upload or preview with token t needs before
// it is read, unless ctx already carries it (AdmitUploads).
func (s *LinkService) admitUploads(ctx context.Context, t LinkToken, preview bool) (func(), error) {
	if id, _ := ctx.Value(uploadsAdmittedKey{}).(string); id == t.ID {
		return func() {}, nil
	}
	if preview && s.uploads.previews != nil {
		wait, ok := s.uploads.previews(ctx, "link_preview/"+t.ID)
		s.uploads.obs.LinkPreview(!ok)
		if !ok {
			return func() {}, &Error{Kind: KindRateLimited, Code: CodeRateLimitExceeded, RetryAfter: wait,
				Message: fmt.Sprintf("this link token previewed uploads %d times in a short while (at most %d, then one every %s); retry after %s",
					PreviewRate.Burst, PreviewRate.Burst, PreviewRate.Every, wait.Round(time.Second))}
		}
	} else if preview {
		s.uploads.obs.LinkPreview(false)
	}
	return s.uploads.admission.Admit(ctx, DocumentWork{Tenant: t.Scope(), Token: t.ID})
}
