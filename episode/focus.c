/*
 * Today's Focus: a setting a commit of the day brings in, quoted verbatim with what to do with it, or the one change worth reading.
 */
#include <string.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "phrase.h"
#include "xmalloc.h"

/* The item whose setting Today's Focus quotes, or NULL. */
static struct draft_item *
focus_item(struct draft *d)
{
	static const enum classify_kind kinds[] = {
		CLASSIFY_PERF, CLASSIFY_FEATURE, CLASSIFY_CHANGE, CLASSIFY_FIX,
		CLASSIFY_RELAND, CLASSIFY_BUILD, CLASSIFY_DOCS
	};
	struct draft_item	*best = NULL;
	size_t			 i, k;

	for (i = 0; i < d->nitems; i++) {
		struct draft_item *it = &d->items[i];

		/* only a setting the commit brings in, never one it names */
		if (it->cl.setting == NULL || !it->cl.setting_new || it->cl.bot ||
		    it->c->reverted_by_idx >= 0)
			continue;
		for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
			if (it->cl.kind == kinds[k])
				break;
		}
		if (k == sizeof kinds / sizeof kinds[0])
			continue;
		if (best == NULL || it->cl.score > best->cl.score)
			best = it;
	}
	return best;
}

/*
 * Today's Focus: one tip quoting verbatim a setting, flag or variable a
 * commit of the day brings in. When no commit gives one, a different
 * closing segment points at the one change worth reading instead; no tip
 * is ever made up.
 */
void
focus_segment(struct draft *d)
{
	static const char *advice_env[] = {
		"If that fits your setup, try %s and see how it behaves.",
		"Worth a try if that's your use case: %s.",
	};
	static const char *advice_flag[] = {
		"Next time you run it, give %s a try.",
		"If you script it, %s is the one to know about.",
	};
	static const char *advice_name[] = {
		"If your code or configuration uses %s, read that change "
		    "before you upgrade.",
		"If %s is part of your setup, that's the change to read "
		    "first.",
	};
	static const char *none[] = {
		"No new setting or flag to try today. If you read just one "
		    "change from this day, make it this one:",
		"Nothing new to switch on today, so instead, the one change "
		    "worth your reading time:",
	};
	struct draft_shas	 shas = { NULL, 0 };
	struct draft_item	*best, *top = NULL;
	const char		*set;
	struct buf		 b;
	size_t			 i;

	if (d->nitems <= 1)
		return;
	buf_init(&b);
	if ((best = focus_item(d)) == NULL) {
		/* the most significant human change, told or not */
		for (i = 0; i < d->nitems; i++) {
			struct draft_item *it = &d->items[i];

			if (it->cl.bot || it->cl.kind == CLASSIFY_REVERT ||
			    it->c->reverted_by_idx >= 0)
				continue;
			if (top == NULL || it->cl.score > top->cl.score)
				top = it;
		}
		if (top == NULL || d->nitems < 3) {
			buf_free(&b);
			return;
		}
		buf_puts(&b, DRAFT_PICK(d, 17, none));
		buf_putc(&b, ' ');
		buf_printf(&b, "%s's ", top->name);
		if (top->cl.area != NULL && top->cl.area_titled &&
		    !phrase_contains(top->cl.what, top->cl.area))
			buf_printf(&b, "%s ", top->cl.area);
		buf_printf(&b, "change, \"%s\".", top->cl.what);
		draft_shas_add(d, &shas, top);
		draft_segment(d, "takeaway", &b, &shas);
		return;
	}
	set = best->cl.setting;
	d->ep->focus = xstrdup(set);
	buf_printf(&b, "Today's Focus: %s.", set);
	if (best->told) {
		phrase_space(&b);
		buf_printf(&b, "It comes from %s's change we heard about "
		    "earlier, titled \"%s\".", best->name, best->cl.what);
	} else
		tell_did_sentence(&b, best, NULL);
	if (!phrase_contains(best->cl.what, set)) {
		if (phrase_contains(best->cl.prose, set)) {
			phrase_space(&b);
			buf_puts(&b, best->cl.prose);
		} else
			buf_printf(&b, " Its message names %s.", set);
	}
	phrase_space(&b);
	if (set[0] == '-')
		buf_printf(&b, DRAFT_PICK(d, 19, advice_flag), set);
	else if (strchr(set, '=') != NULL)
		buf_printf(&b, DRAFT_PICK(d, 19, advice_env), set);
	else
		buf_printf(&b, DRAFT_PICK(d, 19, advice_name), set);
	draft_shas_add(d, &shas, best);
	draft_segment(d, "focus", &b, &shas);
}
