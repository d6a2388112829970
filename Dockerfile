# Builds the image of any patchwork function from source:
#
#   docker build --build-arg FUNCTION=multi-patch -t ghcr.io/patchwork-krm/multi-patch:v0.1.0 .
#
# This needs registry access for the two base images. Where there is none,
# `make images` builds equivalent images from host-built binaries
# (build/Dockerfile.local, scratch-based). GO_IMAGE and RUNTIME_IMAGE may be
# overridden with --build-arg, e.g. for a mirror.
ARG GO_IMAGE=golang:1.26.8-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot

FROM ${GO_IMAGE} AS builder
ARG FUNCTION
WORKDIR /src
# Modules first, so that a source change does not re-download them.
COPY go.mod go.sum ./
RUN GOTOOLCHAIN=local go mod download
COPY . .
RUN if [ -z "${FUNCTION}" ] || [ ! -d "functions/${FUNCTION}" ]; then \
      echo "--build-arg FUNCTION=${FUNCTION}: want one of: $(cd functions && echo *)" >&2; exit 1; \
    fi
RUN CGO_ENABLED=0 GOTOOLCHAIN=local go build -trimpath -ldflags='-s -w' \
      -o /out/function "./functions/${FUNCTION}"

# distroless static: no shell, no package manager; its /etc/passwd has nobody,
# whom kpt runs functions as (--user nobody).
FROM ${RUNTIME_IMAGE}
ARG FUNCTION
ARG VERSION=dev
LABEL org.opencontainers.image.title="patchwork ${FUNCTION}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="https://github.com/patchwork-krm/patchwork"
COPY --from=builder /out/function /usr/local/bin/function
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/function"]
