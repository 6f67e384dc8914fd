package meter

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"parapet/app/apierr"
	"parapet/models"
)

// PolicyTTL is how long the model policies of an organization and key,
// read from the database, are reused: a change applies within it.
const PolicyTTL = time.Second

func errModelNotAllowed(model, scope string) *apierr.Error {
	return apierr.New(http.StatusForbidden, "model_not_allowed",
		fmt.Sprintf("model %q is not among the models %s may call: GET /gateway/v1/models lists those it may", model, scope))
}

type policyRead struct {
	list []models.ModelPolicy
	at   time.Time
}

// policies caches the model policies per organization and key.
type policies struct {
	db    *models.DB
	mu    sync.Mutex
	cache map[string]policyRead
}

func (p *policies) of(ctx context.Context, who Caller, now time.Time) ([]models.ModelPolicy, error) {
	ck := who.OrgID + "/" + who.KeyID
	p.mu.Lock()
	read, ok := p.cache[ck]
	p.mu.Unlock()
	if ok && now.Sub(read.at) < PolicyTTL && !now.Before(read.at) {
		return read.list, nil
	}
	list, err := models.ModelPoliciesOf(ctx, p.db.DB, who.OrgID, who.KeyID)
	if err != nil {
		return nil, apierr.Unavailable(err)
	}
	p.mu.Lock()
	if len(p.cache) >= 10_000 {
		clear(p.cache)
	}
	p.cache[ck] = policyRead{list: list, at: now}
	p.mu.Unlock()
	return list, nil
}

// allowed refuses a model outside the organization's or the key's list.
func (p *policies) allowed(ctx context.Context, who Caller, model string) error {
	list, err := p.of(ctx, who, time.Now())
	if err != nil {
		return err
	}
	for _, pol := range list {
		if len(pol.Models) > 0 && !slices.Contains(pol.Models, model) {
			scope := "your organization"
			if pol.KeyID != "" {
				scope = "this key"
			}
			return errModelNotAllowed(model, scope)
		}
	}
	return nil
}

// Allowed refuses a model outside who's organization's or key's list
// (403 model_not_allowed), for the endpoints that are no call (counting
// tokens): a call is checked by Serve.
func (s *Service) Allowed(ctx context.Context, who Caller, model string) error {
	return s.policies.allowed(ctx, who, model)
}

// ModelsFor lists the models who may call: the service's models, less
// those outside the organization's or the key's policy.
func (s *Service) ModelsFor(ctx context.Context, who Caller) (ModelList, error) {
	all := s.Models()
	list, err := s.policies.of(ctx, who, time.Now())
	if err != nil || len(list) == 0 {
		return all, err
	}
	l := ModelList{Object: "list", Data: []Model{}}
	for _, m := range all.Data {
		if s.policies.allowed(ctx, who, m.ID) == nil {
			l.Data = append(l.Data, m)
		}
	}
	if len(l.Data) > 0 {
		l.FirstID, l.LastID = &l.Data[0].ID, &l.Data[len(l.Data)-1].ID
	}
	return l, nil
}

// ModelFor is the model of who's list named id, and whether there is one.
func (s *Service) ModelFor(ctx context.Context, who Caller, id string) (Model, bool, error) {
	l, err := s.ModelsFor(ctx, who)
	if err != nil {
		return Model{}, false, err
	}
	for _, m := range l.Data {
		if m.ID == id {
			return m, true, nil
		}
	}
	return Model{}, false, nil
}
