/* The control socket: one command per line, one JSON object per line back. */
#ifndef HOOKCAST_CONTROL_H
#define HOOKCAST_CONTROL_H

struct hookcastd;
struct control;
struct buf;

/*
 * Listen on a Unix socket at path (mode 0660). A stale socket file is
 * replaced; one a live process answers on is refused. NULL + *cause.
 */
struct control	*control_listen(struct hookcastd *, const char *path,
		    char **cause);
/* Serve on an inherited listening socket. */
struct control	*control_listen_fd(struct hookcastd *, int fd, char **cause);
/* Close the socket and its clients, and remove the socket file. */
void		 control_free(struct control *);
struct control_cmd;
/*
 * Parse a command line of len bytes (no line end; a NUL in it is a byte
 * like any other): the command's table row, its argument (new, or NULL)
 * in *arg; NULL with *cause (new) when it isn't a valid command, a NUL
 * or another control character in it too.
 */
const struct control_cmd *control_parse(const char *line, size_t len,
		    char **arg, char **cause);
/* A command's name ("status", "flush", ...). */
const char	*control_cmd_name(const struct control_cmd *);
/*
 * A reply that comes later: a command that returns CONTROL_LATER keeps
 * it and answers through control_reply_send, once, with one JSON object
 * (no newline). Meanwhile the client's next commands wait. Sending to a
 * client that went away sends nothing; either way later is freed.
 */
struct control_reply;
#define CONTROL_LATER	1
void		 control_reply_send(struct control_reply *later,
		    const char *json);
/*
 * Run one command line: out gets one JSON object, or CONTROL_LATER is
 * returned and later was kept. 0 or CONTROL_LATER.
 */
int		 control_run(struct hookcastd *, const char *line, size_t len,
		    struct buf *out, struct control_reply *later);

#endif
