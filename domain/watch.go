package domain

// JobWatch narrows a live view of jobs; empty fields match every job.
type JobWatch struct {
	AccountID   string
	EndUserID   string
	LinkTokenID string
}

// accountEvents change what an account shows: it was added, its
// monitoring status moved, or one of its jobs finished.
func accountEvent(name string) bool {
	return name == "account.added" || name == "account.monitoring_status.updated" || EventResource(name) == ResourceJob
}

func matches(want, got string) bool { return want == "" || want == got }
