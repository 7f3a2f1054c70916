# The Infergate image: the gateway, and the model-server simulator, on a Java 25 runtime.
#
#   ./mvnw -B -q -DskipTests package
#   docker build -t infergate/infergate:latest .
#   docker run --rm -p 8080:8080 -p 8081:8081 infergate/infergate:latest                  # gateway (demo mode)
#   docker run --rm -p 8000:8000 infergate/infergate:latest simulator --model demo-llama  # a simulated vLLM pod
#
# The jars are built for Java 17; any JRE 17+ image with /bin/sh can be the base: --build-arg JRE_IMAGE=... (an
# offline machine passes a locally built one; see .ci/local-images.sh). Only classic-builder instructions are used.
ARG JRE_IMAGE=eclipse-temurin:25-jre

# Split the gateway's jar into Spring Boot's layers, so a rebuild that changes only Infergate's own code ships
# only the small application layer. Without --launcher: the gateway runs as `java -jar gateway-app.jar` with its
# libraries on the class path, the form an AOT cache can hold classes of.
FROM ${JRE_IMAGE} AS layers
WORKDIR /layers
COPY gateway-app/target/gateway-app.jar gateway-app.jar
RUN java -Djarmode=tools -jar gateway-app.jar extract --layers --destination extracted

FROM ${JRE_IMAGE}
RUN echo 'infergate:x:10001:10001:Infergate:/app:/sbin/nologin' >> /etc/passwd \
	&& echo 'infergate:x:10001:' >> /etc/group
WORKDIR /app
COPY --from=layers /layers/extracted/dependencies/ gateway/
COPY --from=layers /layers/extracted/spring-boot-loader/ gateway/
COPY --from=layers /layers/extracted/snapshot-dependencies/ gateway/
COPY --from=layers /layers/extracted/application/ gateway/
COPY model-server-sim/target/model-server-sim.jar model-server-sim.jar
COPY deploy/docker/infergate.sh bin/infergate
COPY deploy/docker/aot-training.sh bin/aot-training
# The gateway's AOT cache (JDK 25: JEP 483 classes loaded and linked, JEP 515 method profiles), recorded by one
# training run of this image's own JRE and jars (JEP 514): the gateway in demo mode after AOT_TRAINING_WARMUP of
# its own warm-up, stopped once started. The entrypoint uses it when present. The default, AOT_CACHE=true, records
# it (the gateway is ready in about half the time; docs/performance.md, "The image's runtime"); false leaves it out;
# a JRE before 25 skips it. It adds about 120 MB to the image and a minute to the build.
ARG AOT_CACHE=true
ARG AOT_TRAINING_WARMUP=30s
RUN if [ "$AOT_CACHE" = true ]; then /app/bin/aot-training "$AOT_TRAINING_WARMUP"; fi
# the usage ledger's embedded database (./data, the default spring.datasource.url) when no other database is set
RUN mkdir -p /app/data && chown 10001:10001 /app/data
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75"
USER 10001:10001
# OpenAI API, management (actuator, dashboard), and the simulator's port
EXPOSE 8080 8081 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["/app/bin/infergate", "healthcheck"]
ENTRYPOINT ["/app/bin/infergate"]
CMD ["gateway"]
