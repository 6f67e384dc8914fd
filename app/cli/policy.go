package cli

import (
	"context"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"parapet/app"
	"parapet/models"
)

var policyCommands = []command{
	{"policy set", "--org ORG --models M1,M2 (empty: every model)",
		"set the gateway models an organization may call", runPolicySet},
}

// maxPolicyModels bounds a model list (GATEWAY_CONFIG has at most as many).
const maxPolicyModels = 256

// parseModels reads a --models value: model names separated by commas,
// each one a name clients send; empty is every model.
func parseModels(v string) ([]string, error) {
	var out []string
	for _, m := range strings.Split(v, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		if strings.ContainsAny(m, " \t\n") || len(m) > 256 {
			return nil, fmt.Errorf("%q is not a model name", m)
		}
		out = append(out, m)
	}
	if len(out) > maxPolicyModels {
		return nil, fmt.Errorf("at most %d models", maxPolicyModels)
	}
	return out, nil
}

// checkModels refuses a model GATEWAY_CONFIG does not list, when it is
// set: a typo would otherwise refuse every call for a model that exists.
func checkModels(cfg app.Config, names []string) error {
	if cfg.Gateway.Routing == nil {
		return nil
	}
	known := map[string]bool{}
	for _, m := range cfg.Gateway.Routing.Models {
		known[m.Name] = true
	}
	for _, n := range names {
		if !known[n] {
			return fmt.Errorf("model %q is not in GATEWAY_CONFIG", n)
		}
	}
	return nil
}

// runPolicySet sets the models an organization may call through the
// gateway; an empty --models allows every model again.
func runPolicySet(ctx context.Context, r *runner, c *cmdline) error {
	c.needOrg()
	list := c.String("models", "", "the model names, separated by commas (empty: every model)")
	if _, err := c.parse(); err != nil {
		return err
	}
	if !c.given()["models"] {
		return usageError{"missing --models (give --models= for every model)"}
	}
	names, err := parseModels(*list)
	if err != nil {
		return usageError{"--models: " + err.Error()}
	}
	return r.withDB(ctx, c, func(w *work) error {
		if err := checkModels(w.cfg, names); err != nil {
			return err
		}
		return setPolicy(r, w, w.org.ID, w.org.Slug, "", names)
	})
}

// setPolicy writes an organization's or a key's models, audited.
func setPolicy(r *runner, w *work, orgID, orgName, keyID string, names []string) error {
	scope := orgName
	if keyID != "" {
		scope += " key " + keyID
	}
	target := "gateway models of " + scope + ": " + strings.Join(names, ",")
	if len(names) == 0 {
		target = "gateway models of " + scope + ": every model"
	}
	err := w.audited(func(tx *gorm.DB) (*models.AuditEvent, error) {
		if err := models.SetModelPolicy(tx, orgID, keyID, names); err != nil {
			return nil, err
		}
		return &models.AuditEvent{OrgID: &orgID, Action: models.ActionModelPolicySet, Target: target}, nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(r.stdout, target)
	return nil
}

// runKeySet sets a key's own gateway models: a subset of its
// organization's (a call must pass both lists); empty lifts it.
func runKeySet(ctx context.Context, r *runner, c *cmdline) error {
	list := c.String("models", "", "the model names the key may call, separated by commas (empty: the organization's)")
	pos, err := c.parse("KEY_ID")
	if err != nil {
		return err
	}
	if !c.given()["models"] {
		return usageError{"missing --models (give --models= to lift the key's own list)"}
	}
	names, err := parseModels(*list)
	if err != nil {
		return usageError{"--models: " + err.Error()}
	}
	return r.withDB(ctx, c, func(w *work) error {
		if err := checkModels(w.cfg, names); err != nil {
			return err
		}
		k, err := models.APIKeyByID(ctx, w.db, pos[0])
		if err != nil {
			return notFound(err, "no API key has the id %q", pos[0])
		}
		return setPolicy(r, w, k.OrgID, k.OrgID, k.ID, names)
	})
}
