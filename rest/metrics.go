package rest

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"payline/domain"
	"payline/rest/wire"
)

// Metrics are Payline's Prometheus metrics about requests, rate limits,
// payroll jobs and webhook deliveries. It is the domain's Observer for the
// last two. The binary serves them on --metrics-addr.
type Metrics struct {
	requests        *prometheus.CounterVec
	latency         *prometheus.HistogramVec
	limited         *prometheus.CounterVec
	jobs            *prometheus.CounterVec
	deliveries      *prometheus.CounterVec
	deliveryLatency *prometheus.HistogramVec
}

var _ domain.Observer = (*Metrics)(nil)

// NewMetrics registers the metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payline_http_requests_total",
			Help: "HTTP requests by route pattern, method and status."}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "payline_http_request_duration_seconds",
			Help: "HTTP request duration by route pattern and method.", Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 12)},
			[]string{"route", "method"}),
		limited: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payline_rate_limited_total",
			Help: "Requests refused by the per-customer rate limit, by mode."}, []string{"mode"}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payline_jobs_total",
			Help: "Payroll jobs reaching an outcome, by job type and outcome."}, []string{"job", "outcome"}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payline_webhook_deliveries_total",
			Help: "Webhook delivery attempts by outcome (delivered, retrying, failed, skipped)."}, []string{"outcome"}),
		deliveryLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "payline_webhook_delivery_duration_seconds",
			Help: "How long receivers took to answer, by outcome.", Buckets: prometheus.ExponentialBuckets(0.005, 2.5, 10)},
			[]string{"outcome"}),
	}
	reg.MustRegister(m.requests, m.latency, m.limited, m.jobs, m.deliveries, m.deliveryLatency)
	return m
}

// JobFinished implements domain.Observer.
func (m *Metrics) JobFinished(name domain.JobType, outcome domain.Outcome) {
	m.jobs.WithLabelValues(string(name), string(outcome)).Inc()
}

// WebhookDelivered implements domain.Observer.
func (m *Metrics) WebhookDelivered(outcome string, latency time.Duration) {
	m.deliveries.WithLabelValues(outcome).Inc()
	if outcome != domain.DeliverySkipped {
		m.deliveryLatency.WithLabelValues(outcome).Observe(latency.Seconds())
	}
}

// knownMethods bound the method label: clients may send any token.
var knownMethods = map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "OPTIONS": true}

// request records one request; route is the ServeMux pattern that matched
// ("" for none), so labels stay few however many ids are requested.
func (m *Metrics) request(route, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unmatched"
	}
	if !knownMethods[method] {
		method = "OTHER"
	}
	if status == 0 {
		status = http.StatusOK
	}
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route, method).Observe(d.Seconds())
}

func (m *Metrics) rateLimited(mode domain.Mode) {
	if m != nil {
		m.limited.WithLabelValues(string(mode)).Inc()
	}
}

// Check is one readiness check: empty Problem means it passed.
type Check struct {
	Name    string
	Problem string
	// Status, when set, is what a passing check reports instead of "ok"
	// (where a background sync stands, say).
	Status string
}

// readyz answers 200 when every check passes and 503 naming the ones that
// did not, for load balancers and orchestrators. No secret needed. Beside
// the checks of Config.Ready, "capacity" fails while nearly every request
// slot is taken (saturated), so a balancer routes around the instance.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	checks := map[string]string{}
	ready := true
	capacity := Check{Name: "capacity"}
	if inUse, of, full := s.saturated(); full {
		capacity.Problem = fmt.Sprintf("serving %d requests of at most %d at once", inUse, of)
	}
	for _, c := range append(s.ready(ctx), capacity) {
		if c.Problem != "" {
			checks[c.Name], ready = c.Problem, false
		} else {
			checks[c.Name] = cmp.Or(c.Status, "ok")
		}
	}
	if !ready {
		wire.Write(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "checks": checks})
		return
	}
	wire.Write(w, http.StatusOK, map[string]any{"status": "ready", "checks": checks})
}

// queueDepth is a collector that counts the queue's jobs by state when
// scraped (one small GROUP BY), so the gauge is the same on every instance.
type queueDepth struct {
	desc  *prometheus.Desc
	depth func(ctx context.Context) (map[string]int, error)
}

// NewQueueDepthCollector reports depth as payline_queue_jobs{state}.
func NewQueueDepthCollector(depth func(ctx context.Context) (map[string]int, error)) prometheus.Collector {
	return &queueDepth{desc: prometheus.NewDesc("payline_queue_jobs", "Queued jobs (payroll jobs, webhook deliveries, monitoring) by state.",
		[]string{"state"}, nil), depth: depth}
}

func (q *queueDepth) Describe(ch chan<- *prometheus.Desc) { ch <- q.desc }

func (q *queueDepth) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := q.depth(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(q.desc, err)
		return
	}
	for state, n := range counts {
		ch <- prometheus.MustNewConstMetric(q.desc, prometheus.GaugeValue, float64(n), state)
	}
}

// UpstreamBudget is one upstream's request budget as the metrics report
// it: requests let go, 429s answered, requests queued now and the rate
// allowed now and as configured.
type UpstreamBudget struct {
	Upstream              string
	Spent, Limited, Waits int64
	Waiting               int
	Rate, MaxRate         float64
}

type upstreamBudgets struct {
	spent, limited, waits, waiting, rate, maxRate *prometheus.Desc
	read                                          func() []UpstreamBudget
}

// NewUpstreamBudgetCollector reports each upstream's budget (issue 47):
// payline_upstream_requests_total, payline_upstream_rate_limited_total
// (429s), payline_upstream_queued_total (requests that had to wait),
// payline_upstream_waiting, payline_upstream_rate and
// payline_upstream_max_rate (requests a second), each by upstream.
func NewUpstreamBudgetCollector(read func() []UpstreamBudget) prometheus.Collector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, []string{"upstream"}, nil)
	}
	return &upstreamBudgets{
		spent:   d("payline_upstream_requests_total", "Requests the upstream's budget let go."),
		limited: d("payline_upstream_rate_limited_total", "429 answers from the upstream."),
		waits:   d("payline_upstream_queued_total", "Requests that waited in the upstream's budget for a slot."),
		waiting: d("payline_upstream_waiting", "Requests waiting in the upstream's budget now."),
		rate:    d("payline_upstream_rate", "Requests a second the upstream's budget allows now (lowered after 429s)."),
		maxRate: d("payline_upstream_max_rate", "Requests a second the upstream's budget is configured for."),
		read:    read,
	}
}

func (u *upstreamBudgets) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{u.spent, u.limited, u.waits, u.waiting, u.rate, u.maxRate} {
		ch <- d
	}
}

func (u *upstreamBudgets) Collect(ch chan<- prometheus.Metric) {
	for _, b := range u.read() {
		ch <- prometheus.MustNewConstMetric(u.spent, prometheus.CounterValue, float64(b.Spent), b.Upstream)
		ch <- prometheus.MustNewConstMetric(u.limited, prometheus.CounterValue, float64(b.Limited), b.Upstream)
		ch <- prometheus.MustNewConstMetric(u.waits, prometheus.CounterValue, float64(b.Waits), b.Upstream)
		ch <- prometheus.MustNewConstMetric(u.waiting, prometheus.GaugeValue, float64(b.Waiting), b.Upstream)
		ch <- prometheus.MustNewConstMetric(u.rate, prometheus.GaugeValue, b.Rate, b.Upstream)
		ch <- prometheus.MustNewConstMetric(u.maxRate, prometheus.GaugeValue, b.MaxRate, b.Upstream)
	}
}
