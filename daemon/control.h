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
 * Parse a command line: the command's table row, its argument (new, or
 * NULL) in *arg; NULL with *cause (new) when it isn't a valid command.
 */
const struct control_cmd *control_parse(const char *line, char **arg,
		    char **cause);
/* A command's name ("status", "flush", ...). */
const char	*control_cmd_name(const struct control_cmd *);
/* Run one command line; out gets one JSON object. */
void		 control_run(struct hookcastd *, const char *line,
		    struct buf *out);

#endif
