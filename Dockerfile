# The Infergate image: the gateway, and the model-server simulator, on a JRE base.
#
#   ./mvnw -B -q -DskipTests package
#   docker build -t infergate/infergate:latest .
#   docker run --rm -p 8080:8080 -p 8081:8081 infergate/infergate:latest                  # gateway (demo mode)
#   docker run --rm -p 8000:8000 infergate/infergate:latest simulator --model demo-llama  # a simulated vLLM pod
#
# Any JRE 17+ image with /bin/sh can be the base: --build-arg JRE_IMAGE=... (an offline machine passes a locally
# built one; see .ci/local-images.sh). Only classic-builder instructions are used.
ARG JRE_IMAGE=eclipse-temurin:17-jre

# Split the gateway's jar into Spring Boot's layers, so a rebuild that changes only Infergate's own code ships
# only the small application layer.
FROM ${JRE_IMAGE} AS layers
WORKDIR /layers
COPY gateway-app/target/gateway-app.jar gateway-app.jar
RUN java -Djarmode=tools -jar gateway-app.jar extract --layers --launcher --destination extracted

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
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75"
USER 10001:10001
# OpenAI API, management (actuator, dashboard), and the simulator's port
EXPOSE 8080 8081 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["/app/bin/infergate", "healthcheck"]
ENTRYPOINT ["/app/bin/infergate"]
CMD ["gateway"]
