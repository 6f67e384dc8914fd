package app_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// Parallel calls spread over two instances sharing Redis and Postgres,
// each reserving its worst case in Redis before calling the upstream: the
// month's usage ends at most one call's reservation over a 200-token
// quota, with 20 calls and with 100.
func TestInstancesShareTheQuota(t *testing.T) {
	for _, n := range []int{20, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			envs := cluster(t, 2, apptest.WithEnv("GATEWAY_RATE_LIMIT_PER_MINUTE", "100000"))
			s := envs[0].Seed(t, fmt.Sprintf("quota%d@example.com", n))
			ctx := context.Background()
			if err := models.SetEntitlement(ctx, envs[0].DB.DB, s.OrgID, models.GatewayProductID, 200); err != nil {
				t.Fatal(err)
			}
			const reservation = 22 + 16 + 100 // the input bound of the body below (22 bytes, 2×8 of framing) + max_tokens
			var mu sync.Mutex
			counts := map[int]int{}
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					st := envs[i%2].Client().PostJSON("/gateway/v1/chat", `{"messages":[{"role":"user","content":"count my tokens please"}],"max_tokens":100}`,
						"Authorization", "Bearer "+s.Key).StatusCode
					mu.Lock()
					counts[st]++
					mu.Unlock()
				})
			}
			wg.Wait()
			for _, env := range envs {
				env.App.FlushAudit()
			}
			a, err := models.AllowanceOf(ctx, envs[0].DB.DB, s.OrgID, models.GatewayProductID, models.Period(models.Now()))
			if err != nil {
				t.Fatal(err)
			}
			if counts[200] == 0 || counts[200]+counts[429] != n || a.UsedTokens > 200+reservation {
				t.Errorf("answers %v; used %d tokens of a 200-token quota", counts, a.UsedTokens)
			}
		})
	}
}
