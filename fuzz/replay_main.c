/* Replays a fuzz target's corpus (every file in the directories or files given) once. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	int c;
	while ((c = fgetc(f)) != EOF) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return 1;
			}
			buf = nb;
		}
		buf[len++] = (uint8_t)c;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]))
				return 1;
			files++;
			continue;
		}
		struct dirent **names;
		int n = scandir(argv[i], &names, NULL, alphasort);
		for (int k = 0; k < n; k++) {
			char path[4096];
			if (names[k]->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", argv[i], names[k]->d_name);
				if (run_file(path))
					return 1;
				files++;
			}
			free(names[k]);
		}
		free(names);
	}
	printf("replayed %d inputs\n", files);
	return files > 0 ? 0 : 1;
}
