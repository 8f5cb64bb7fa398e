/*
 * The one rule of what a repository's "owner/name" may be. Intake refuses
 * a delivery whose name breaks it; the archive and emission use the two
 * parts as folders of OUTPUT_DIR, so what intake accepts can always be
 * written.
 */
#ifndef HOOKCAST_REPO_H
#define HOOKCAST_REPO_H

#define REPO_OWNER_MAX	100
#define REPO_NAME_MAX	100

/*
 * Is s a GitHub "owner/name"? One '/'; each part 1..100 of letters,
 * digits, '-', '_' and '.'; the owner does not start with '.' (GitHub
 * account names never do) and the name is not "." or ".." (".github" is
 * a real, common name). Both parts are then safe as path components.
 */
int	 repo_name_ok(const char *s);

/* Bytes in a repository's web address (repository.html_url) we keep. */
#define REPO_URL_MAX	512

/*
 * Is url the web page of the repository full_name, safe to build links
 * from? "https://" (or "http://", as a GitHub Enterprise server may be)
 * then a host and path of letters, digits and "-._~:/%" only (no blank,
 * quote, bracket, parenthesis, angle bracket, '?', '#', '&' or control),
 * at most REPO_URL_MAX bytes, ending in "/" and full_name as GitHub
 * spells both. "<url>/commit/<sha>" and "<url>/pull/<n>" are then
 * links that Markdown, HTML and JSON carry as they are.
 */
int	 repo_url_ok(const char *url, const char *full_name);

#endif
