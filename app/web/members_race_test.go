package web_test

import (
	"net/url"
	"sync"
	"testing"

	"parapet/app/apptest"
	"parapet/models"
)

// The roles are checked again under the organization's lock when the
// change is made. An admin's 20 parallel "make them a viewer" racing the
// owner's "make them an owner" must never end with the owner's promotion
// undone: once the member is an owner, an admin's change is refused, even
// one whose first check saw a mere member. (Checked before the
// transaction only, about one round in ten ended with an admin having
// demoted an owner.)
func TestAdminCannotDemoteAnOwnerByRacing(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		owner, admin := tm.clients[models.RoleOwner], tm.clients[models.RoleAdmin]
		target := tm.ids[models.RoleMember]
		path := "/console/members/" + target + "/role"
		ownerTok, adminTok := owner.CSRF("/console/members"), admin.CSRF("/console/members")
		for round := range 10 {
			if err := env.DB.Model(&models.Membership{}).Where("org_id = ? AND user_id = ?", tm.org.ID, target).
				Update("role", models.RoleMember).Error; err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			var promoted int
			start := make(chan struct{})
			for i := range 21 {
				wg.Go(func() {
					<-start
					if i == 10 {
						res := owner.PostForm(path, url.Values{"_csrf": {ownerTok}, "role": {models.RoleOwner}})
						promoted = res.StatusCode
						return
					}
					admin.PostForm(path, url.Values{"_csrf": {adminTok}, "role": {models.RoleViewer}})
				})
			}
			close(start)
			wg.Wait()
			if promoted != 303 {
				t.Fatalf("round %d: the owner's promotion: %d", round, promoted)
			}
			m, err := models.MemberOf(t.Context(), env.DB.DB, tm.org.ID, target)
			if err != nil {
				t.Fatal(err)
			}
			if m.Role != models.RoleOwner {
				t.Fatalf("round %d: the member is %s after the owner made them an owner: an admin demoted an owner", round, m.Role)
			}
		}
	})
}

// An admin demoted (or removed) while their form was on its way cannot
// then change anyone: the change checks the roles as they are when it is
// made.
func TestDemotedAdminCannotActOnAStaleCheck(t *testing.T) {
	apptest.EachDB(t, func(t *testing.T, env *apptest.Env) {
		tm := newTeam(t, env)
		ctx := t.Context()
		admin, member := tm.ids[models.RoleAdmin], tm.ids[models.RoleMember]
		if _, err := models.SetMemberRole(ctx, env.DB.DB, tm.org.ID, "", admin, models.RoleViewer); err != nil {
			t.Fatal(err)
		}
		if _, err := models.SetMemberRole(ctx, env.DB.DB, tm.org.ID, admin, member, models.RoleViewer); err != models.ErrActorCannot {
			t.Errorf("a demoted admin's role change: %v, want ErrActorCannot", err)
		}
		if _, err := models.RemoveMember(ctx, env.DB.DB, tm.org.ID, admin, member); err != models.ErrActorCannot {
			t.Errorf("a demoted admin's removal: %v, want ErrActorCannot", err)
		}
		if m, _ := models.MemberOf(ctx, env.DB.DB, tm.org.ID, member); m == nil || m.Role != models.RoleMember {
			t.Errorf("the member was changed: %+v", m)
		}
	})
}
