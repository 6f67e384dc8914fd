package api

import (
	"errors"
	"strconv"

	"parapet/app/apierr"
)

func itoa(n int) string { return strconv.Itoa(n) }

func asAPIErr(err error, target **apierr.Error) bool { return errors.As(err, target) }
