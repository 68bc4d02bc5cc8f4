/* The floor for `skillrt list`: the least work any lister must do on a tree.
 *
 *   floor_probe ROOT...
 *
 * Walks each root with opendir/readdir, pruning what the skill walker prunes
 * (EXCLUDED_SKILL_DIRS everywhere; references/templates/assets/scripts beside a
 * SKILL.md), opens every SKILL.md and reads its first 4 KB (enough for the
 * frontmatter and its closing fence), parses nothing, sorts nothing, and prints
 * how many SKILL.md files it read. Symlinked directories are not followed (the
 * generated bench trees have none). No allocation per file beyond the name list
 * of the directory being walked. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { k_read_window = 4096, k_max_depth = 64 };

static const char* const k_excluded[] = {
    ".git", ".github", ".hub", ".archive", ".venv", "venv", "node_modules", "site-packages",
    "__pycache__", ".tox", ".nox", ".pytest_cache", ".mypy_cache", ".ruff_cache", NULL};
static const char* const k_support[] = {"references", "templates", "assets", "scripts", NULL};

static int in_list(const char* name, const char* const* list) {
  for (; *list != NULL; ++list) {
    if (strcmp(name, *list) == 0) {
      return 1;
    }
  }
  return 0;
}

struct Probe {
  unsigned long files;       /* SKILL.md files read */
  unsigned long with_fence;  /* of those, how many had a closed frontmatter in the window */
  char buf[k_read_window];
};

static void probe_file(struct Probe* probe, int dir_fd) {
  int fd = openat(dir_fd, "SKILL.md", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return;
  }
  ssize_t n = read(fd, probe->buf, sizeof probe->buf);
  close(fd);
  if (n < 0) {
    return;
  }
  probe->files++;
  /* The fence check is the only look at the bytes: it keeps the read honest. */
  size_t len = (size_t)n;
  const char* start = probe->buf;
  if (len >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
    start += 3;
    len -= 3;
  }
  if (len >= 3 && memcmp(start, "---", 3) == 0 && memmem(start + 3, len - 3, "\n---", 4) != NULL) {
    probe->with_fence++;
  }
}

/* Collects the sub-directory names of `dir_fd` and whether it holds SKILL.md. */
static void walk(struct Probe* probe, int dir_fd, int depth) {
  DIR* dir = fdopendir(dir_fd);
  if (dir == NULL) {
    close(dir_fd);
    return;
  }
  char* names = NULL;
  size_t used = 0;
  size_t cap = 0;
  int has_skill = 0;
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    const char* name = entry->d_name;
    if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) {
      continue;
    }
    unsigned char type = entry->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st;
      if (fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        continue;
      }
      type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
    }
    if (type == DT_REG && strcmp(name, "SKILL.md") == 0) {
      has_skill = 1;
    } else if (type == DT_DIR && !in_list(name, k_excluded)) {
      size_t len = strlen(name) + 1;
      if (used + len > cap) {
        cap = cap == 0 ? 1024 : cap * 2;
        while (used + len > cap) {
          cap *= 2;
        }
        char* grown = realloc(names, cap);
        if (grown == NULL) {
          break;
        }
        names = grown;
      }
      memcpy(names + used, name, len);
      used += len;
    }
  }
  if (has_skill) {
    probe_file(probe, dirfd(dir));
  }
  if (depth < k_max_depth) {
    for (size_t off = 0; off < used; off += strlen(names + off) + 1) {
      const char* name = names + off;
      if (has_skill && in_list(name, k_support)) {
        continue;
      }
      int child = openat(dirfd(dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (child >= 0) {
        walk(probe, child, depth + 1);
      }
    }
  }
  free(names);
  closedir(dir);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fputs("usage: floor_probe ROOT...\n", stderr);
    return 2;
  }
  static struct Probe probe;
  for (int i = 1; i < argc; ++i) {
    int fd = open(argv[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      perror(argv[i]);
      return 1;
    }
    walk(&probe, fd, 0);
  }
  printf("%lu\n", probe.files);
  if (getenv("FLOOR_PROBE_VERBOSE") != NULL) {
    fprintf(stderr, "skill_files=%lu with_closed_frontmatter=%lu\n", probe.files, probe.with_fence);
  }
  return 0;
}
