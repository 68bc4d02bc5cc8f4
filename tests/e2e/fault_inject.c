/* LD_PRELOAD shim for the skill_manage fault tests: makes write(), fsync() or
 * rename() fail (or hang) on the files a test names, so a test can prove that a
 * full disk, a permission error or a kill -9 mid-write never damages a skill.
 * Tests run as root, where chmod cannot produce EACCES; this can.
 *
 * SKILLRT_FAULT="OP:WHAT[:after=N][:match=SUBSTR]"
 *   OP     write | fsync | rename (rename and renameat2)
 *   WHAT   an errno name (ENOSPC, EACCES, EIO, EDQUOT) or sleep=SECONDS
 *   after  write only: let N bytes through first (a short write up to the
 *          boundary), then fail every later write
 *   match  only paths containing SUBSTR (default: every regular file; rename
 *          compares the source path). stdout/stderr and pipes are never touched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

enum fault_op { OP_NONE, OP_WRITE, OP_FSYNC, OP_RENAME };

static struct {
  int parsed;
  enum fault_op op;
  int err; /* errno to fail with; 0 = sleep */
  unsigned sleep_s;
  long long after; /* bytes let through before the fault (write) */
  char match[256];
  long long written; /* bytes let through so far */
} g_fault;

static int errno_named(const char* name) {
  if (strcmp(name, "ENOSPC") == 0)
    return ENOSPC;
  if (strcmp(name, "EACCES") == 0)
    return EACCES;
  if (strcmp(name, "EIO") == 0)
    return EIO;
  if (strcmp(name, "EDQUOT") == 0)
    return EDQUOT;
  if (strcmp(name, "EPERM") == 0)
    return EPERM;
  return EIO;
}

static void parse_fault(void) {
  if (g_fault.parsed) {
    return;
  }
  g_fault.parsed = 1;
  const char* spec = getenv("SKILLRT_FAULT");
  if (spec == NULL || *spec == '\0') {
    return;
  }
  char buffer[512];
  snprintf(buffer, sizeof buffer, "%s", spec);
  char* save = NULL;
  int field = 0;
  for (char* token = strtok_r(buffer, ":", &save); token != NULL; token = strtok_r(NULL, ":", &save), ++field) {
    if (field == 0) {
      g_fault.op = strcmp(token, "write") == 0    ? OP_WRITE
                   : strcmp(token, "fsync") == 0  ? OP_FSYNC
                   : strcmp(token, "rename") == 0 ? OP_RENAME
                                                  : OP_NONE;
    } else if (strncmp(token, "sleep=", 6) == 0) {
      g_fault.err = 0;
      g_fault.sleep_s = (unsigned)strtoul(token + 6, NULL, 10);
    } else if (strncmp(token, "after=", 6) == 0) {
      g_fault.after = strtoll(token + 6, NULL, 10);
    } else if (strncmp(token, "match=", 6) == 0) {
      snprintf(g_fault.match, sizeof g_fault.match, "%s", token + 6);
    } else {
      g_fault.err = errno_named(token);
    }
  }
}

/* Is fd a regular file whose path contains the match string? */
static int fd_targeted(int fd) {
  struct stat st;
  if (fd <= 2 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    return 0;
  }
  if (g_fault.match[0] == '\0') {
    return 1;
  }
  char link[64];
  char path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n < 0) {
    return 0;
  }
  path[n] = '\0';
  return strstr(path, g_fault.match) != NULL;
}

static int trigger(void) {
  if (g_fault.err == 0) {
    sleep(g_fault.sleep_s); /* the test kills us meanwhile */
    return 0;
  }
  errno = g_fault.err;
  return -1;
}

ssize_t write(int fd, const void* buf, size_t count) {
  static ssize_t (*real_write)(int, const void*, size_t);
  if (real_write == NULL) {
    real_write = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
  }
  parse_fault();
  if (g_fault.op == OP_WRITE && fd_targeted(fd)) {
    long long room = g_fault.after - g_fault.written;
    if (room <= 0) {
      if (trigger() != 0) {
        return -1;
      }
    } else if ((long long)count > room) {
      count = (size_t)room; /* a short write up to the boundary */
    }
    ssize_t n = real_write(fd, buf, count);
    if (n > 0) {
      g_fault.written += n;
    }
    return n;
  }
  return real_write(fd, buf, count);
}

int fsync(int fd) {
  static int (*real_fsync)(int);
  if (real_fsync == NULL) {
    real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  }
  parse_fault();
  if (g_fault.op == OP_FSYNC && fd_targeted(fd) && trigger() != 0) {
    return -1;
  }
  return real_fsync(fd);
}

int rename(const char* from, const char* to) {
  static int (*real_rename)(const char*, const char*);
  if (real_rename == NULL) {
    real_rename = (int (*)(const char*, const char*))dlsym(RTLD_NEXT, "rename");
  }
  parse_fault();
  if (g_fault.op == OP_RENAME && (g_fault.match[0] == '\0' || strstr(from, g_fault.match) != NULL) && trigger() != 0) {
    return -1;
  }
  return real_rename(from, to);
}

/* The no-replace rename of core/files goes through renameat2; same rule. */
int renameat2(int from_dir, const char* from, int to_dir, const char* to, unsigned int flags) {
  static int (*real_renameat2)(int, const char*, int, const char*, unsigned int);
  if (real_renameat2 == NULL) {
    real_renameat2 = (int (*)(int, const char*, int, const char*, unsigned int))dlsym(RTLD_NEXT, "renameat2");
  }
  parse_fault();
  if (g_fault.op == OP_RENAME && (g_fault.match[0] == '\0' || strstr(from, g_fault.match) != NULL) && trigger() != 0) {
    return -1;
  }
  return real_renameat2(from_dir, from, to_dir, to, flags);
}
