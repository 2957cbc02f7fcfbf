package io.hourglass.spring.autoconfigure;

import io.hourglass.spring.HourglassPayloadCodec;
import io.hourglass.spring.json.Jackson2PayloadCodec;
import io.hourglass.spring.json.Jackson3PayloadCodec;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JSON {@link HourglassPayloadCodec}, first match wins: the application's Jackson 3 {@code JsonMapper} bean (Spring
 * Boot 4), its Jackson 2 {@code ObjectMapper} bean (Spring Boot 3.5), else a default mapper of whichever Jackson is on
 * the class path. None without Jackson: then only {@code String} and {@code byte[]} payloads work.
 */
final class HourglassJsonConfiguration {

    private HourglassJsonConfiguration() {}

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "tools.jackson.databind.json.JsonMapper")
    @ConditionalOnSingleCandidate(tools.jackson.databind.json.JsonMapper.class)
    static class ApplicationJackson3 {
        @Bean
        @ConditionalOnMissingBean(HourglassPayloadCodec.class)
        Jackson3PayloadCodec hourglassPayloadCodec(tools.jackson.databind.json.JsonMapper mapper) {
            return new Jackson3PayloadCodec(mapper);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "com.fasterxml.jackson.databind.ObjectMapper")
    @ConditionalOnSingleCandidate(com.fasterxml.jackson.databind.ObjectMapper.class)
    static class ApplicationJackson2 {
        @Bean
        @ConditionalOnMissingBean(HourglassPayloadCodec.class)
        Jackson2PayloadCodec hourglassPayloadCodec(com.fasterxml.jackson.databind.ObjectMapper mapper) {
            return new Jackson2PayloadCodec(mapper);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "tools.jackson.databind.json.JsonMapper")
    static class DefaultJackson3 {
        @Bean
        @ConditionalOnMissingBean(HourglassPayloadCodec.class)
        Jackson3PayloadCodec hourglassPayloadCodec() {
            return new Jackson3PayloadCodec(tools.jackson.databind.json.JsonMapper.builder()
                    .findAndAddModules()
                    .build());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "com.fasterxml.jackson.databind.ObjectMapper")
    static class DefaultJackson2 {
        @Bean
        @ConditionalOnMissingBean(HourglassPayloadCodec.class)
        Jackson2PayloadCodec hourglassPayloadCodec() {
            return new Jackson2PayloadCodec(new com.fasterxml.jackson.databind.ObjectMapper().findAndRegisterModules());
        }
    }
}
