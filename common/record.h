/*
 * Normalized records: what hookcast keeps of a delivery once the payload is
 * parsed and dropped. Handlers fill them, the day store owns them, the
 * episode drafter reads them. Plain structs, no libevent, no jansson.
 *
 * Every char * in these structs is owned by the struct that holds it and is
 * either NULL or a NUL-terminated UTF-8 string; but a push in a day
 * borrows its branch and pusher from the day (day_add_push).
 */
#ifndef HOOKCAST_RECORD_H
#define HOOKCAST_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* What a commit message says about reverting or re-landing. */
struct revert_info {
	int	 is_revert;	/* reverts earlier work */
	int	 is_reland;	/* re-applies work that was reverted */
	int	 automatic;	/* an automatic revert (e.g. an autorevert bot) */
	char	*reverted_sha;	/* 40-hex sha named in the message, or NULL */
	char	*reverted_subject; /* subject of the reverted (or re-landed) work */
	char	*reverted_pr;	/* URL of the reverted pull request, or NULL */
	char	*requested_by;	/* login on whose behalf it was reverted */
	char	*reason;	/* why, as the message gives it */
};

/*
 * A commit's list of file names (added, removed or modified) is one
 * allocation: its n pointers, then the names they point to, each
 * NUL-terminated, one after another. free() of the list frees it all,
 * and a name cleaned in place stays where it is. A push of twenty
 * commits names hundreds of files: one allocation a list, not one a name.
 */
struct commit {
	char		*sha;		/* 40 hex */
	char		*author_name;
	char		*author_login;	/* GitHub username, or NULL */
	char		*author_email;
	char		*committer_name;
	char		*committer_login;
	time_t		 timestamp;	/* commit timestamp, UTC seconds */
	char		*subject;	/* first line of the message */
	char		*body;		/* the rest, leading blank lines cut; may be "" */
	char		*branch;	/* branch it was pushed to (no refs/heads/) */
	char	       **added;
	size_t		 nadded;
	char	       **removed;
	size_t		 nremoved;
	char	       **modified;
	size_t		 nmodified;
	struct revert_info revert;
	/*
	 * Index in the day of the commit this one reverts (or re-lands), or of
	 * the revert that reverts this one; -1 when none is in the day. Set by
	 * day_pair_reverts().
	 */
	long		 reverts_idx;
	long		 reverted_by_idx;
};

struct merged_pr {
	long	 number;
	char	*title;
	char	*author_login;
	char	*body;		/* may be NULL */
	char	*merge_sha;	/* merge_commit_sha, or NULL */
	char	*branch;	/* base ref the PR merged into */
	time_t	 merged_at;
};

/*
 * A push's before and after: a commit id as its 20 bytes, shown and
 * journalled as 40 lower-case hex digits. All zero is none: git's id for
 * no commit (a created branch's before, a deleted one's after), and what
 * a value that is not 40 hex digits (missing, abbreviated, or a 64-hex
 * SHA-256 id) is kept as.
 */
#define PUSH_ID_LEN	20
#define PUSH_HEX_LEN	(2 * PUSH_ID_LEN)

struct push {
	uint8_t	 before[PUSH_ID_LEN];
	uint8_t	 after[PUSH_ID_LEN];
	uint32_t ncommits;	/* as many as fit */
	uint8_t	 forced;	/* 0 or 1, as are the two below */
	uint8_t	 created;
	uint8_t	 deleted;
	char	*branch;
	char	*pusher;	/* pusher name */
	time_t	 at;		/* when it was received */
};

/*
 * Payload text as the day keeps it: the one place where text from outside
 * becomes text hookcast may say, write or show. In place (the result is
 * never longer); returns the new length. Invalid UTF-8 (stray, truncated
 * or overlong sequences, surrogates) is dropped byte by byte; terminal
 * escape sequences (ESC and C1 CSI, OSC, DCS, ...) are dropped whole; the
 * other C0 and C1 controls, DEL and the bidirectional and byte-order
 * marks are dropped; tabs, CR and the other blanks become spaces. With
 * RECORD_CLEAN_LINES newlines stay (CRLF and U+2028/9 become one);
 * without it a newline is a space too, and runs of spaces fold into one
 * with the ends trimmed. Markup ('<', backticks, links) is left for the
 * classifier to read: spoken text drops it later (spoken_clean), and
 * each output escapes for its own format. Idempotent. NULL is a no-op.
 */
#define RECORD_CLEAN_LINES	0x1
size_t	 record_clean(char *, int flags);
/*
 * File lists (see struct commit). record_list_new: room for n names of
 * bytes in all, their NULs included, *names where the first goes; the
 * caller writes them one after another and points the list at each.
 * record_list_pack: a list of the n NUL-terminated names that follow one
 * another in the bytes at s. record_list_dup: a list of copies of the n
 * names. NULL when n is 0.
 */
char	**record_list_new(size_t n, size_t bytes, char **names);
char	**record_list_pack(const char *s, size_t bytes, size_t n);
char	**record_list_dup(char *const *names, size_t n);

/* Clean every text a commit, merged PR or push holds (record_clean). */
void	 commit_clean(struct commit *);
void	 merged_pr_clean(struct merged_pr *);
void	 push_clean(struct push *);

/*
 * Set a push id from hex: 0 when hex is 40 hex digits (in either case),
 * else -1 with the id set to none (all zero). hex may be NULL.
 */
int	 push_id_set(uint8_t id[PUSH_ID_LEN], const char *hex);
/* The id as 40 lower-case hex digits and a NUL in hex. */
void	 push_id_hex(const uint8_t id[PUSH_ID_LEN], char hex[PUSH_HEX_LEN + 1]);
/* Is the id none (all zero)? */
int	 push_id_none(const uint8_t id[PUSH_ID_LEN]);

/*
 * Fixed caps, in bytes, on the text one sender writes into the day and the
 * journal; whatever max_body lets through, a commit or pull request keeps
 * at most this much of it (record_cut). Not settings.
 */
#define COMMIT_MAX_SUBJECT	1024
#define COMMIT_MAX_BODY		(16 * 1024)
#define MERGED_PR_MAX_TITLE	COMMIT_MAX_SUBJECT
#define MERGED_PR_MAX_BODY	(64 * 1024)

/*
 * How many of the n bytes at s to keep under a cap of max: n when it
 * fits; else the text up to the last blank (space, tab, newline, CR) at
 * or before max, with the blanks ending it cut, so no word is split and
 * nothing is added (spoken text would read a mark oddly); else, when no
 * blank leaves anything, up to the last whole UTF-8 character within
 * max. Bytes that are not well-formed UTF-8 count as one character
 * each. A kept text fits, so cutting it again keeps it whole.
 */
size_t	 record_cut(const char *s, size_t n, size_t max);
/* A copy of s cut to max bytes (record_cut); NULL for NULL. */
char	*record_cut_dup(const char *s, size_t max);

/*
 * Split "subject\n\nbody" into owned subject and body, cut to
 * COMMIT_MAX_SUBJECT and COMMIT_MAX_BODY bytes (record_cut): every intake
 * and the journal's replay keep a commit's message through here. 0 or -1.
 */
int	 commit_set_message(struct commit *, const char *message);
/* Who a commit counts as: its author's login, else name; NULL if neither. */
const char *commit_author_key(const struct commit *);
/*
 * What a record costs the memory of the day that keeps it, as counted
 * against max_open_bytes: its struct, and for every string it owns (names,
 * e-mails, message, branch, revert details) its bytes, its NUL and
 * RECORD_ALLOC_OVERHEAD for the allocation; for each file list, one
 * RECORD_ALLOC_OVERHEAD and each name's bytes, NUL and pointer. An estimate (allocator rounding and the day's arrays and
 * indexes are not counted one by one) but linear in what the sender sent;
 * it only shrinks when the record is cleaned.
 */
#define RECORD_ALLOC_OVERHEAD	16
size_t	 commit_bytes(const struct commit *);
size_t	 merged_pr_bytes(const struct merged_pr *);
/*
 * A push as a handler or the journal hands it over, owning its branch and
 * pusher. In a day those are the day's names, shared by its pushes and
 * counted once (day.h): there a push costs its struct.
 */
size_t	 push_bytes(const struct push *);
/* Free what a commit owns (not the struct itself). */
void	 commit_clear(struct commit *);
void	 revert_info_clear(struct revert_info *);
void	 merged_pr_clear(struct merged_pr *);
/* Not for a push in a day, which owns nothing (day_add_push). */
void	 push_clear(struct push *);

/*
 * Fill a commit's revert_info from its subject and body: git's
 * Revert "<subject>" + "This reverts commit <sha>.", Reapply "<subject>",
 * Revert "Revert "..."" (a re-land), "[Reland]"/"[reland]" title tags,
 * curl-style "... (revert)" subjects, and PyTorch's bot trailer
 * "Reverted <url> on behalf of <url/login> due to <reason> ([comment](...))",
 * automatic when the reason says "autorevert". Returns 0, or -1 on
 * allocation failure.
 */
int	 revert_parse(const char *subject, const char *body, struct revert_info *);

#endif
