/* Calling cdlinear from C: read a LIBSVM file into CSR arrays in memory,
 * train on them, predict, save the model, load it back, and see the status
 * and message of malformed arrays. Build it against an installed cdlinear
 * (make install PREFIX=...):
 *
 *   cc -std=c99 library-example.c $(pkg-config --cflags --libs cdlinear)
 *
 * Run it as `a.out data/heart_scale scratch_dir [solver]`: solver is a
 * LIBLINEAR -s number or a cdtrain solver name (default 2). The model it
 * writes to scratch_dir/c-example.model is the one `cdtrain -s solver`
 * writes for the same file. */
#include <cdlinear_c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A matrix by rows, as scipy's csr_matrix holds it: row r's nonzeros are
 * entries indptr[r] to indptr[r + 1] - 1 of indices (0-based columns) and
 * values. */
struct csr {
  size_t rows, cols, nnz;
  int64_t* indptr;
  int32_t* indices;
  double* values;
  double* labels;
};

static void csr_free(struct csr* x) {
  free(x->indptr);
  free(x->indices);
  free(x->values);
  free(x->labels);
}

/* Reads `label index:value ...` lines (1-based indices) into x, in two
 * passes: the first counts the lines and the colons, which size the arrays,
 * the second fills them. A small reader that trusts its input
 * (cdl_data_from_csr checks the arrays it gets). */
static int read_libsvm(const char* path, struct csr* x) {
  FILE* in = fopen(path, "r");
  size_t lines = 0;
  int c, last = '\n';
  memset(x, 0, sizeof *x);
  if (in == NULL) return 0;
  while ((c = fgetc(in)) != EOF) {
    if (c == '\n') ++lines;
    if (c == ':') ++x->nnz;
    last = c;
  }
  if (last != '\n') ++lines;
  x->indptr = malloc((lines + 1) * sizeof(int64_t));
  x->labels = malloc((lines + 1) * sizeof(double));
  x->indices = malloc((x->nnz + 1) * sizeof(int32_t));
  x->values = malloc((x->nnz + 1) * sizeof(double));
  if (x->indptr == NULL || x->labels == NULL || x->indices == NULL || x->values == NULL) {
    fclose(in);
    return 0;
  }
  rewind(in);
  x->nnz = 0;
  while (x->rows < lines && fscanf(in, "%lf", &x->labels[x->rows]) == 1) {
    x->indptr[x->rows] = (int64_t)x->nnz;
    for (;;) {
      long index;
      double value;
      do c = fgetc(in);
      while (c == ' ' || c == '\t');
      if (c == '\n' || c == EOF) break;
      ungetc(c, in);
      if (fscanf(in, "%ld:%lf", &index, &value) != 2) {
        fclose(in);
        return 0;
      }
      x->indices[x->nnz] = (int32_t)(index - 1);
      x->values[x->nnz] = value;
      ++x->nnz;
      if ((size_t)index > x->cols) x->cols = (size_t)index;
    }
    ++x->rows;
  }
  fclose(in);
  x->indptr[x->rows] = (int64_t)x->nnz;
  return x->rows > 0;
}

/* Prints the failed call's status and message; gives 1, main's exit code. */
static int report(const char* call, int status) {
  fprintf(stderr, "error: %s: status %d: %s\n", call, status, cdl_last_error());
  return 1;
}

/* The solver's iterations and final objective for each problem it solved
 * (one per class for one-vs-rest), and the first feature's weights (one
 * per decision value). */
static void print_run(const cdl_model* model) {
  size_t problems = 0, nr_w = 0, count = 0, k;
  int64_t* iterations;
  double *objectives, *weights;
  cdl_model_num_problems(model, &problems);
  iterations = malloc((problems + 1) * sizeof(int64_t));
  objectives = malloc((problems + 1) * sizeof(double));
  if (iterations != NULL && objectives != NULL &&
      cdl_model_iterations(model, iterations, problems) == CDL_OK &&
      cdl_model_objectives(model, objectives, problems) == CDL_OK) {
    for (k = 0; k < problems; ++k) {
      printf("problem %lu: %ld iterations, objective %.10g\n", (unsigned long)k + 1,
             (long)iterations[k], objectives[k]);
    }
  }
  free(iterations);
  free(objectives);
  cdl_model_nr_w(model, &nr_w);
  cdl_model_num_weights(model, &count);
  weights = malloc((count + 1) * sizeof(double));
  if (weights != NULL && cdl_model_weights(model, weights, count) == CDL_OK) {
    printf("feature 1's weights:");
    for (k = 0; k < nr_w && k < count; ++k) printf(" %.6g", weights[k]);
    printf("\n");
  }
  free(weights);
}

static double share_correct(const double* predicted, const double* labels, size_t n) {
  size_t k, correct = 0;
  for (k = 0; k < n; ++k) correct += predicted[k] == labels[k];
  return (double)correct / (double)n;
}

int main(int argc, char** argv) {
  struct csr x;
  cdl_data* data = NULL;
  cdl_options* options = NULL;
  cdl_model* model = NULL;
  cdl_model* loaded = NULL;
  double *predicted = NULL, *predicted_again = NULL;
  char model_path[4096];
  const char* solver_type = NULL;
  int labels[64];
  size_t classes = 0, k;
  int status, exit_code = 1;

  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s data_file scratch_dir [solver]\n", argv[0]);
    return 2;
  }
  if (!read_libsvm(argv[1], &x)) {
    fprintf(stderr, "error: cannot read %s\n", argv[1]);
    csr_free(&x);
    return 1;
  }
  printf("%lu instances, %lu features, %lu nonzeros\n", (unsigned long)x.rows,
         (unsigned long)x.cols, (unsigned long)x.nnz);

  /* float64 values and int32 indices are used in place: x must outlive the
   * data handle (freed below, before x). */
  status = cdl_data_from_csr(x.rows, x.cols, x.nnz, x.indptr, CDL_INT64, x.indices, CDL_INT32,
                             x.values, CDL_FLOAT64, x.labels, x.rows, NULL, 0, &data);
  if (status != CDL_OK) {
    exit_code = report("cdl_data_from_csr", status);
    goto done;
  }

  cdl_options_create(&options);
  cdl_options_set_solver(options, argc == 4 ? argv[3] : "2");
  status = cdl_train(data, options, &model);
  if (status != CDL_OK) {
    exit_code = report("cdl_train", status);
    goto done;
  }
  cdl_model_solver_type(model, &solver_type);
  cdl_model_num_labels(model, &classes);
  printf("%s, %lu classes:", solver_type, (unsigned long)classes);
  if (classes <= sizeof labels / sizeof labels[0] &&
      cdl_model_labels(model, labels, sizeof labels / sizeof labels[0]) == CDL_OK) {
    for (k = 0; k < classes; ++k) printf(" %d", labels[k]);
  }
  printf("\n");
  print_run(model);

  predicted = malloc(x.rows * sizeof(double));
  predicted_again = malloc(x.rows * sizeof(double));
  if (predicted == NULL || predicted_again == NULL) {
    fprintf(stderr, "error: out of memory\n");
    goto done;
  }
  status = cdl_model_predict(model, data, 0, predicted, x.rows);
  if (status != CDL_OK) {
    exit_code = report("cdl_model_predict", status);
    goto done;
  }
  if (classes > 0) {
    printf("training accuracy %.4f%%\n", 100 * share_correct(predicted, x.labels, x.rows));
  }

  /* Save, load, and predict again with the loaded model. */
  snprintf(model_path, sizeof model_path, "%s/c-example.model", argv[2]);
  status = cdl_model_save(model, model_path);
  if (status != CDL_OK) {
    exit_code = report("cdl_model_save", status);
    goto done;
  }
  status = cdl_model_load(model_path, &loaded);
  if (status != CDL_OK) {
    exit_code = report("cdl_model_load", status);
    goto done;
  }
  status = cdl_model_predict(loaded, data, 0, predicted_again, x.rows);
  if (status != CDL_OK) {
    exit_code = report("cdl_model_predict", status);
    goto done;
  }
  printf("loaded: same predictions %s\n",
         memcmp(predicted, predicted_again, x.rows * sizeof(double)) == 0 ? "yes" : "no");

  /* Malformed arrays: a status, a message naming the row and entry, and no
   * data handle. Here the first row's two column indices are swapped, once
   * the data that uses them in place is freed. */
  cdl_data_free(data);
  data = NULL;
  if (x.indptr[1] >= 2) {
    cdl_data* bad = NULL;
    int32_t first = x.indices[0];
    x.indices[0] = x.indices[1];
    x.indices[1] = first;
    status = cdl_data_from_csr(x.rows, x.cols, x.nnz, x.indptr, CDL_INT64, x.indices, CDL_INT32,
                               x.values, CDL_FLOAT64, x.labels, x.rows, NULL, 0, &bad);
    printf("caught: status %d, handle %s: %s\n", status, bad == NULL ? "NULL" : "set",
           cdl_last_error());
    cdl_data_free(bad);
  }
  exit_code = 0;

done:
  free(predicted);
  free(predicted_again);
  cdl_model_free(loaded);
  cdl_model_free(model);
  cdl_options_free(options);
  cdl_data_free(data);
  csr_free(&x);
  return exit_code;
}
