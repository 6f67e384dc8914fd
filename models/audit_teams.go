package models

// Audit actions of teams, the key lifecycle and two-factor sign-in.
const (
	ActionKeyRoll         = "key.roll"
	ActionKeyLeaked       = "key.leaked"    // revoked by a leak report
	ActionKeyLeakSeen     = "key.leak_seen" // an owner marked the leak as handled
	ActionKeyKeep         = "key.keep"      // kept when its maker left or lost the role that made it
	ActionMemberRole      = "member.role"
	ActionMemberRemove    = "member.remove"
	ActionMemberLeave     = "member.leave"
	ActionMemberJoin      = "member.join" // accepted an invitation
	ActionInviteCreate    = "invite.create"
	ActionInviteRevoke    = "invite.revoke"
	ActionOrgRequire2FA   = "org.require_2fa"
	ActionTOTPEnable      = "totp.enable"
	ActionTOTPDisable     = "totp.disable"
	ActionTOTPFailure     = "totp.failure" // a wrong second-step code: counted by the throttle
	ActionRecoveryCodeUse = "totp.recovery_code"
	ActionPasskeyAdd      = "passkey.add"
	ActionPasskeyRename   = "passkey.rename"
	ActionPasskeyRemove   = "passkey.remove"
	ActionPasskeyFailure  = "passkey.failure" // an answer that failed its checks (wrong challenge, unknown credential, bad signature)
)
