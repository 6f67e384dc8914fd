package cli

import (
	"parapet/app"
	"parapet/models"
)

// openDB opens the database without migrating it: admin commands need an
// up-to-date schema, which `parapet migrate` provides.
func openDB(cfg app.Config) (*models.DB, error) {
	return models.Open(cfg.DatabaseURL, 4)
}
