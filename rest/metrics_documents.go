package rest

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"payline/domain"
)

// DocumentMetrics are the Prometheus metrics of document work: uploads
// and previews admitted to be read, queued and refused
// (domain.DocumentAdmission), how long they waited, how many are read and
// wait now, and Link's previews and those the per-token rate refused. It
// is the domain's DocumentObserver.
type DocumentMetrics struct {
	work     *prometheus.CounterVec
	wait     prometheus.Histogram
	previews *prometheus.CounterVec
}

var _ domain.DocumentObserver = (*DocumentMetrics)(nil)

// NewDocumentMetrics registers the metrics with reg; load, when set,
// reports the documents read and waiting at each scrape.
func NewDocumentMetrics(reg prometheus.Registerer, load func() (running, waiting int)) *DocumentMetrics {
	m := &DocumentMetrics{
		work: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payline_document_work_total",
			Help: "Uploads and previews asking to be read, by outcome (admitted, queued, refused) and, when refused, reason (token, tenant, queue_full, deadline, left)."},
			[]string{"outcome", "reason"}),
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "payline_document_queue_wait_seconds",
			Help: "How long uploads and previews waited for a document slot, admitted or refused.", Buckets: prometheus.ExponentialBuckets(0.01, 2.5, 10)}),
		previews: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payline_link_previews_total",
			Help: "Link upload previews asked for, by outcome (allowed, limited by the token's preview rate)."}, []string{"outcome"}),
	}
	reg.MustRegister(m.work, m.wait, m.previews)
	if load != nil {
		reg.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "payline_documents_reading", Help: "Uploads and previews holding a document slot now."},
				func() float64 { r, _ := load(); return float64(r) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "payline_documents_waiting", Help: "Uploads and previews waiting for a document slot now."},
				func() float64 { _, w := load(); return float64(w) }))
	}
	return m
}

// DocumentWork implements domain.DocumentObserver.
func (m *DocumentMetrics) DocumentWork(outcome, reason string, waited time.Duration) {
	m.work.WithLabelValues(outcome, reason).Inc()
	if outcome != domain.DocumentQueued {
		m.wait.Observe(waited.Seconds())
	}
}

// LinkPreview implements domain.DocumentObserver.
func (m *DocumentMetrics) LinkPreview(limited bool) {
	outcome := "allowed"
	if limited {
		outcome = "limited"
	}
	m.previews.WithLabelValues(outcome).Inc()
}
