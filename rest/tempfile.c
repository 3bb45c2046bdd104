/* Anonymous temporary files on disk for large server answers, in a directory hbtab can write. */
#include "tempfile.h"
#include "core/buf.h"
#include "core/interrupt.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int hb_dir_usable(const char *d)
{
	struct stat st;

	return d && *d && !stat(d, &st) && S_ISDIR(st.st_mode) && !access(d, W_OK | X_OK);
}

const char *hb_temp_dir(void)
{
	const char *d = getenv("TMPDIR");

	/* A TMPDIR left over in a cron environment (removed, read-only, someone else's) is no
	 * reason to fail a run that /tmp can serve. */
	return hb_dir_usable(d) ? d : "/tmp";
}

FILE *hb_temp_file(void)
{
	struct hb_buf path = HB_BUF_INIT;
	FILE *f = NULL;
	int fd, e;

	if (hb_buf_addf(&path, "%s/hbtab-XXXXXX", hb_temp_dir())) {
		errno = ENOMEM;
		return NULL;
	}
	/* Named only between mkstemp and unlink, with the signals held: an interrupt cannot
	 * leave the name behind. */
	hb_interrupt_block(1);
	fd = mkstemp(path.data);
	e = errno;
	if (fd >= 0)
		unlink(path.data);
	hb_interrupt_block(0);
	hb_buf_release(&path);
	if (fd >= 0 && !(f = fdopen(fd, "w+b"))) {
		e = errno;
		close(fd);
	}
	if (!f)
		errno = e;
	return f;
}
