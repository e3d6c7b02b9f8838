package rest

import (
	"os"
	"testing"

	"payline/storage/storagetest"
)

func TestMain(m *testing.M) {
	if os.Getenv(receiverEnv) == "1" { // the webhook benchmark's receiver
		runReceiver()
		return
	}
	os.Exit(storagetest.Main(m))
}
