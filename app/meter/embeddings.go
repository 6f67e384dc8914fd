package meter

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"parapet/app/gateway"
	"parapet/app/httpx"
)

// ServeEmbeddings runs one embeddings call as a chat's: admitted (its
// reservation the input's bound, there is no output), called, metered by
// the provider's input tokens and recorded, whatever happens. Its answer
// and errors are OpenAI's.
func (s *Service) ServeEmbeddings(c echo.Context, who Caller) error {
	c.Set(servedKey, true)
	k := &call{who: who, dialect: Dialect{Name: "embeddings"}, start: time.Now()}
	err := s.serveEmbeddings(c, k)
	s.record(c, k, err)
	if gateway.Final(err) {
		c.Response().Header().Set(HeaderShouldRetry, "false")
	}
	return err
}

func (s *Service) serveEmbeddings(c echo.Context, k *call) error {
	if k.who.OrgID == "" {
		return ErrNoOrganization
	}
	if err := httpx.RequireJSON(c); err != nil {
		return err
	}
	body, err := httpx.ReadBody(c, gateway.MaxBodyBytes)
	if err != nil {
		return err
	}
	req, err := gateway.ParseEmbeddingsRequest(body, s.Proxy.Defaults())
	if err != nil {
		return err
	}
	k.embed = req
	// An unknown or forbidden model is said so, as on every endpoint,
	// before whether any provider embeds.
	if k.route, err = s.Proxy.Route(req.Model); err != nil {
		return err
	}
	if err := s.policies.allowed(c.Request().Context(), k.who, req.Model); err != nil {
		return err
	}
	if !s.Proxy.Embeddings() {
		// Refused before any reservation: the provider cannot serve it.
		_, report, err := s.Proxy.Embed(c.Request().Context(), req)
		k.report = &report
		return err
	}
	ctx := c.Request().Context()
	if k.hold, err = s.admit(ctx, k, int64(req.InputTokensBound()), c.Response().Header()); err != nil {
		return err
	}
	emb, report, err := s.Proxy.Embed(ctx, req)
	k.report = &report
	c.Response().Header().Set("Server-Timing", serverTiming(time.Since(k.start)-report.Latency, report.Latency))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, emb)
}
