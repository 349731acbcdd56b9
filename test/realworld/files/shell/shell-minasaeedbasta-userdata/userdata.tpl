[settings.kubernetes]
api-server = "${api_server}"
cluster-certificate = "${cluster_ca}"
cluster-name = "${cluster_name}"