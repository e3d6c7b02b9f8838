package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// createDatabaseFile creates a new SQLite database as an empty file
// readable and writable by its owner only (0600), before SQLite opens
// it; an existing file is left as its owner set it. The database holds
// people's pay, identity and bank details, and SQLite would create it
// 0644 (less the umask), readable by every local user.
//
// Creating the file first is what also keeps the -wal, -shm and -journal
// files private: SQLite creates each with the permissions of the
// database file (unix VFS, findCreateFileMode and the shared-memory
// open), and they come and go as the database is used. The other ways
// are weaker: the umask is the whole process's, so setting it around the
// open would also apply to any file another goroutine creates meanwhile,
// and a chmod after the open leaves a window in which the file is
// readable and misses a -wal or -shm created before it.
func createDatabaseFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create the SQLite database: %w", err)
	}
	return f.Close()
}
