package rest

import (
	"os"
	"testing"

	"payline/storage/storagetest"
)

func TestMain(m *testing.M) { os.Exit(storagetest.Main(m)) }
