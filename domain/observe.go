package domain

import "time"

// Observer is told what the services did, for metrics. Calls are made
// after the change commits and must not block.
type Observer interface {
	// JobFinished: a payroll job reached an outcome (pending included).
	JobFinished(name JobType, outcome Outcome)
	// WebhookDelivered: an attempt to deliver an event ended; outcome is
	// one of the Delivery outcomes, latency the receiver's time.
	WebhookDelivered(outcome string, latency time.Duration)
}

type noObserver struct{}

func (noObserver) JobFinished(JobType, Outcome)           {}
func (noObserver) WebhookDelivered(string, time.Duration) {}

// observerOr is o, or an observer that does nothing.
func observerOr(o Observer) Observer {
	if o == nil {
		return noObserver{}
	}
	return o
}
