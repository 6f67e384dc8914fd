// Command parapet is the whole product in one binary: the web server, the
// migration step of a deploy, and the operators' admin commands.
package main

import (
	"os"

	"parapet/app/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
