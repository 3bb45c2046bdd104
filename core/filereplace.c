/* A file replaced whole or not at all (core/filereplace.h). */
#include "core/filereplace.h"
#include "core/buf.h"
#include "core/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The directory part of path ("." when it has none) and the name part. */
static int split_path(const char *path, struct hb_buf *dir, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		*base = path;
		return hb_buf_adds(dir, ".");
	}
	*base = slash + 1;
	return slash == path ? hb_buf_adds(dir, "/")
	                     : hb_buf_add(dir, path, (size_t)(slash - path));
}

static void sync_dir(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);

	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

void hb_file_sync_dir(const char *path)
{
	struct hb_buf dir = HB_BUF_INIT;
	const char *base;

	if (!split_path(path, &dir, &base))
		sync_dir(hb_buf_str(&dir));
	hb_buf_release(&dir);
}

int hb_file_replace(const char *path, const void *data, size_t n, mode_t mode, struct hb_error *err)
{
	struct hb_buf dir = HB_BUF_INIT, tmp = HB_BUF_INIT;
	const char *base;
	int fd, e = 0, registered = 0, rc = 0;

	if (split_path(path, &dir, &base) ||
	    hb_buf_addf(&tmp, "%s/.%s.XXXXXX", hb_buf_str(&dir), base)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	/* The temporary name exists only while registered: a signal removes it. */
	hb_interrupt_block(1);
	fd = mkstemp(tmp.data);
	e = fd < 0 ? errno : 0;
	if (fd >= 0)
		registered = !hb_interrupt_add_file(tmp.data);
	hb_interrupt_block(0);
	if (fd < 0) {
		rc = hb_error_set(err, HB_EINVAL, "cannot write '%s': %s", path, strerror(e));
		goto done;
	}
	if (write_all(fd, data, n) || fchmod(fd, mode) || fsync(fd))
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	hb_interrupt_block(1);
	if (!e && rename(tmp.data, path))
		e = errno;
	if (e)
		unlink(tmp.data);
	if (registered)
		hb_interrupt_remove_file(tmp.data);
	hb_interrupt_block(0);
	if (e) {
		rc = hb_error_set(err, HB_EINVAL, "cannot write '%s': %s", path, strerror(e));
		goto done;
	}
	sync_dir(hb_buf_str(&dir));
done:
	hb_buf_release(&dir);
	hb_buf_release(&tmp);
	return rc;
}
